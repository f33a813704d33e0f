import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { negotiate } from '@fastify/accept-negotiator';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** Below this a compressed body saves less than its headers cost (the compression plugin's threshold). */
const THRESHOLD = 1024;

/** Whether an If-None-Match header names this ETag (weak comparison, as for GET) or is `*`. */
function matchesEtag(header: string | undefined, etag: string): boolean {
  if (typeof header !== 'string') return false;
  const wanted = etag.replace(/^W\//, '');
  return header
    .split(',')
    .map((t) => t.trim().replace(/^W\//, ''))
    .some((t) => t === wanted || t === '*');
}

/**
 * A response body that is the same for every request (content, the SPA page), compressed once per
 * encoding at the best ratio rather than on every request: the work is done once per content snapshot,
 * and customers on slow connections get the smallest transfer. It carries its own ETag.
 */
export class PrecompressedBody {
  /** Weak: the same body goes out in several encodings. */
  readonly etag: string;
  private readonly encoded = new Map<'br' | 'gzip', Buffer>();

  constructor(readonly text: string) {
    this.etag = `W/"${createHash('sha256').update(text).digest('base64url').slice(0, 27)}"`;
  }

  private bytes(encoding: 'br' | 'gzip'): Buffer {
    let body = this.encoded.get(encoding);
    if (!body) {
      body =
        encoding === 'br'
          ? brotliCompressSync(this.text, {
              params: {
                [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
                [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
                [constants.BROTLI_PARAM_SIZE_HINT]: Buffer.byteLength(this.text),
              },
            })
          : gzipSync(this.text, { level: constants.Z_BEST_COMPRESSION });
      this.encoded.set(encoding, body);
    }
    return body;
  }

  /**
   * Sends the body with its ETag, in the best encoding the client accepts (the compression plugin
   * leaves it be); 304 when the client already has it.
   */
  send(
    request: FastifyRequest,
    reply: FastifyReply,
    contentType: string,
    options: { etag?: boolean } = {},
  ): FastifyReply {
    // A body sent with an error status (the not-found page) is sent whole, without a validator.
    if (options.etag !== false) {
      reply.header('ETag', this.etag);
      if (matchesEtag(request.headers['if-none-match'], this.etag)) return reply.code(304).send();
    }
    reply.type(contentType);
    if (this.text.length < THRESHOLD) return reply.send(this.text);
    const vary = reply.getHeader('Vary');
    reply.header('Vary', vary ? `${String(vary)}, Accept-Encoding` : 'Accept-Encoding');
    const accepted = request.headers['accept-encoding'];
    const encoding = accepted
      ? negotiate(accepted.toLowerCase().replace(/\*|x-gzip/g, 'gzip'), ['br', 'gzip'])
      : null;
    if (!encoding) return reply.send(this.text);
    const body = this.bytes(encoding);
    return reply.header('Content-Encoding', encoding).header('Content-Length', body.length).send(body);
  }
}
