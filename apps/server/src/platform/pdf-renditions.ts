import { createHash } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { LRUCache } from 'lru-cache';
import type { Clock } from './clock';
import type { Queryable } from './db';
import { pdfDisposition, renderPdf, type PdfContent } from './pdf';
import { SENT, type Sent } from './route';

/**
 * Bump when the drawing changes (pdf.ts draw, fonts, layout): the kept PDFs of the old drawing are then
 * no longer found, and each is drawn again the next time it is asked for.
 */
const DRAWING_VERSION = 1;

/** Kept in memory per instance, most recently used first (a page of ours is a few kilobytes). */
const MEMORY_BYTES = 32 * 1024 * 1024;

/**
 * The documents' caching headers: the browser may keep a customer's PDF only for itself (`private`: no
 * shared cache, proxy or CDN) and must ask each time (`no-cache`), when a 304 saves sending it again.
 */
export const DOCUMENT_CACHE_CONTROL = 'private, no-cache';

/** A strong entity tag from a SHA-256 in hex. */
export const etagOf = (sha256: string) => `"${sha256}"`;

/** True when If-None-Match names `etag` (or is `*`), weak or strong (RFC 9110 §13.1.2: weak comparison). */
export function matchesIfNoneMatch(header: string | string[] | undefined, etag: string): boolean {
  if (!header) return false;
  const value = Array.isArray(header) ? header.join(',') : header;
  return value.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t.replace(/^W\//, '') === etag;
  });
}

/** 304 Not Modified for the tag the client holds: no body, the same validators and caching headers. */
export async function sendNotModified(reply: FastifyReply, etag: string): Promise<Sent> {
  await reply.status(304).header('etag', etag).header('cache-control', DOCUMENT_CACHE_CONTROL).send();
  return SENT;
}

/**
 * The PDFs we draw (policy, billing and quote documents), each drawn once per content and kept (issue 27):
 * the key is the SHA-256 of the drawing's version and everything drawn, addressee included, so any change
 * to the document's data, the customer's name or address makes a new PDF and no stale one is ever served.
 * The caller has already checked that the document is the customer's (404 otherwise) and built the content
 * from their own records, so the key is only ever reached with that customer's data.
 * Answers with the key as ETag and 304 to a matching If-None-Match (nothing read or drawn); otherwise from
 * memory, then from the table document_rendition (shared by every instance), else draws it and keeps it.
 */
export function createPdfRenditions(ctx: { db: Queryable; clock: Clock }) {
  const memory = new LRUCache<string, Buffer>({
    maxSize: MEMORY_BYTES,
    sizeCalculation: (pdf) => pdf.length || 1,
  });

  async function pdfFor(key: string, content: PdfContent): Promise<Buffer> {
    const cached = memory.get(key);
    if (cached) return cached;
    const { rows } = await ctx.db.query<{ pdf: Uint8Array }>(
      'SELECT pdf FROM document_rendition WHERE content_hash = $1',
      [key],
    );
    let pdf: Buffer;
    if (rows[0]) pdf = Buffer.from(rows[0].pdf);
    else {
      pdf = await renderPdf(content);
      // Two instances drawing the same document at once: the first kept stays, both answers are the document.
      await ctx.db.query(
        `INSERT INTO document_rendition (content_hash, pdf, created_at) VALUES ($1, $2, $3)
         ON CONFLICT (content_hash) DO NOTHING`,
        [key, pdf, ctx.clock.now()],
      );
    }
    memory.set(key, pdf);
    return pdf;
  }

  return {
    /** Sends the document's PDF as `fileName` (an attachment), from what was kept when it can. */
    async send(reply: FastifyReply, fileName: string, content: PdfContent): Promise<Sent> {
      const key = createHash('sha256')
        .update(JSON.stringify({ v: DRAWING_VERSION, content }))
        .digest('hex');
      const etag = etagOf(key);
      if (matchesIfNoneMatch(reply.request.headers['if-none-match'], etag))
        return sendNotModified(reply, etag);
      const pdf = await pdfFor(key, content);
      await reply
        .status(200)
        .header('content-type', 'application/pdf')
        .header('content-disposition', pdfDisposition(fileName))
        .header('etag', etag)
        .header('cache-control', DOCUMENT_CACHE_CONTROL)
        .header('x-content-type-options', 'nosniff')
        .send(pdf);
      return SENT;
    },
  };
}
export type PdfRenditions = ReturnType<typeof createPdfRenditions>;
