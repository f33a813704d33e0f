import { contentDispositionFor } from '@portal/contracts/document';
import type { FastifyReply } from 'fastify';
import type { Queryable } from '../../platform/db';
import { notFound } from '../../platform/errors';
import {
  DOCUMENT_CACHE_CONTROL,
  etagOf,
  matchesIfNoneMatch,
  sendNotModified,
} from '../../platform/pdf-renditions';
import { SENT, type Sent } from '../../platform/route';
import { fileContent, type FileRef } from './files.repository';

/**
 * Answers the PDF the insurer made, byte for byte, under the document's file name (made a safe .pdf
 * name), with its SHA-256 as ETag (304 to a matching If-None-Match), kept only by the customer's own
 * browser and checked each time, never sniffed, like the PDFs we draw.
 */
export async function sendStoredFile(q: Queryable, reply: FastifyReply, file: FileRef): Promise<Sent> {
  // The file's own SHA-256 is its tag: a client holding it gets 304 without the file being read.
  const etag = etagOf(file.sha256);
  if (matchesIfNoneMatch(reply.request.headers['if-none-match'], etag)) return sendNotModified(reply, etag);
  const content = await fileContent(q, file.sha256);
  // A document's file cannot go while the document refers to it; gone now means the document went too.
  if (!content) throw notFound('There is no such document.');
  await reply
    .status(200)
    .header('content-type', 'application/pdf')
    .header('content-disposition', contentDispositionFor(file.fileName))
    .header('etag', etag)
    .header('cache-control', DOCUMENT_CACHE_CONTROL)
    .header('x-content-type-options', 'nosniff')
    .send(content);
  return SENT;
}
