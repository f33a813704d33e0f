import { contentDispositionFor } from '@portal/contracts/document';
import type { FastifyReply } from 'fastify';
import type { Queryable } from '../../platform/db';
import { notFound } from '../../platform/errors';
import { SENT, type Sent } from '../../platform/route';
import { fileContent, type FileRef } from './files.repository';

/**
 * Answers the PDF the insurer made, byte for byte, under the document's file name (made a safe .pdf
 * name): never cached, never sniffed, like the PDFs we draw.
 */
export async function sendStoredFile(q: Queryable, reply: FastifyReply, file: FileRef): Promise<Sent> {
  const content = await fileContent(q, file.sha256);
  // A document's file cannot go while the document refers to it; gone now means the document went too.
  if (!content) throw notFound('There is no such document.');
  await reply
    .status(200)
    .header('content-type', 'application/pdf')
    .header('content-disposition', contentDispositionFor(file.fileName))
    .header('cache-control', 'no-store')
    .header('x-content-type-options', 'nosniff')
    .send(content);
  return SENT;
}
