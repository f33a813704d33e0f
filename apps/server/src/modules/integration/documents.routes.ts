import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  deleteBillingAccountCall,
  deleteBillingDocumentCall,
  deleteDocumentPackCall,
  putBillingAccountCall,
  putBillingDocumentCall,
  putDocumentPackCall,
  uploadFileCall,
  type UploadedFile,
} from '@portal/contracts/integration/documents';
import { HttpError } from '../../platform/errors';
import type { IntegrationContext } from './context';
import { route, SENT } from '../../platform/route';
import { actorOf, serveRecord } from './record-routes';

const PDF_MAGIC = Buffer.from('%PDF-');

const isPdf = (head: Buffer) => head.subarray(0, PDF_MAGIC.length).equals(PDF_MAGIC);

const notPdf = () =>
  new HttpError(415, 'NOT_A_PDF', 'The file is not a PDF: its first bytes must be %PDF-.', undefined, {
    Connection: 'close',
  });

const empty = () => new HttpError(400, 'EMPTY_FILE', 'The request body is empty: send the PDF.');

const tooLarge = (max: number) =>
  // The rest of the body is never read: the connection closes after the answer.
  new HttpError(413, 'PAYLOAD_TOO_LARGE', `A file may have at most ${max} bytes.`, undefined, {
    Connection: 'close',
  });

/**
 * Reads an uploaded PDF as it arrives: its SHA-256 and bytes, refusing it as soon as it passes `max`
 * (413) or its first bytes are not a PDF's (415), before the rest is read.
 */
async function readPdf(request: FastifyRequest, max: number): Promise<{ sha256: string; content: Buffer }> {
  const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/pdf') {
    throw new HttpError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Send the file as Content-Type: application/pdf.');
  }
  if (Number(request.headers['content-length'] ?? 0) > max) throw tooLarge(max);
  const body = request.body as Readable | undefined;
  if (typeof body?.iterator !== 'function') throw empty();
  const hash = createHash('sha256');
  const chunks: Buffer[] = [];
  let size = 0;
  let checked = false;
  // Not destroyed when refused (that would drop the connection before the answer is sent).
  for await (const chunk of body.iterator({ destroyOnReturn: false })) {
    const bytes = chunk as Buffer;
    size += bytes.length;
    if (size > max) throw tooLarge(max);
    chunks.push(bytes);
    hash.update(bytes);
    if (!checked && size >= PDF_MAGIC.length) {
      if (!isPdf(Buffer.concat(chunks))) throw notPdf();
      checked = true;
    }
  }
  if (size === 0) throw empty();
  const content = Buffer.concat(chunks, size);
  if (!checked && !isPdf(content)) throw notPdf();
  return { sha256: hash.digest('hex'), content };
}

/**
 * The insurer's documents (docs/integration.md): PDF upload, and the records of document packs, billing
 * accounts and billing documents, each one line through the integration service.
 */
export async function documentRoutes(app: FastifyInstance, ctx: IntegrationContext): Promise<void> {
  // The PDF reaches the handler as the raw stream (not buffered by Fastify, nor bounded by its bodyLimit):
  // readPdf checks and bounds it as it arrives.
  app.addContentTypeParser('application/pdf', (_request, payload, done) => done(null, payload));

  route(app, uploadFileCall, async ({ request, reply }) => {
    const file = await readPdf(request, ctx.config.integration.maxFileBytes);
    const { created } = await ctx.services.documents.storeFile(file, actorOf(request));
    const answer: UploadedFile = { sha256: file.sha256, size: file.content.length };
    // 201 for a new file, 200 for one already held: route() would answer the one success status.
    await reply.status(created ? 201 : 200).send(answer);
    return SENT;
  });

  serveRecord(
    app,
    ctx,
    { put: putDocumentPackCall, remove: deleteDocumentPackCall },
    'policyDocumentPack',
    (p) => `${p['policyNumber']}/${p['packId']}`,
  );
  serveRecord(
    app,
    ctx,
    { put: putBillingAccountCall, remove: deleteBillingAccountCall },
    'billingAccount',
    (p) => p['accountNumber']!,
  );
  serveRecord(
    app,
    ctx,
    { put: putBillingDocumentCall, remove: deleteBillingDocumentCall },
    'billingDocument',
    (p) => `${p['accountNumber']}/${p['documentId']}`,
  );
}
