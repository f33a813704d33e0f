import PDFDocument from 'pdfkit';
import type { FastifyReply } from 'fastify';
import { SENT, type Sent } from './route';

/** What a document page is made of: a title, the addressee, then sections of labelled lines. */
export interface PdfContent {
  title: string;
  /** Subtitle under the title (the document's reference). */
  reference: string;
  /** The addressee's name and address lines. */
  addressee: string[];
  date: string;
  sections: Array<{ heading: string; rows: Array<[label: string, value: string]> }>;
  /** Closing paragraphs. */
  notes?: string[];
}

const INK = '#0b0c0c';
const BRAND = '#1d4f91';

function draw(doc: PDFKit.PDFDocument, content: PdfContent): void {
  doc.info.Title = `${content.title} ${content.reference}`;
  doc.info.Author = 'Meridian Mutual';
  doc.fillColor(BRAND).font('Helvetica-Bold').fontSize(18).text('Meridian Mutual', { continued: false });
  doc
    .fillColor(INK)
    .font('Helvetica')
    .fontSize(9)
    .text('Meridian House, Tiddington Road, Stratford-upon-Avon CV37 7BJ');
  doc.moveDown(1.5);
  doc.font('Helvetica').fontSize(11);
  for (const line of content.addressee) doc.text(line);
  doc.moveDown();
  doc.text(content.date);
  doc.moveDown(1.5);
  doc.font('Helvetica-Bold').fontSize(16).text(content.title);
  doc.font('Helvetica').fontSize(11).text(content.reference);
  for (const section of content.sections) {
    doc.moveDown();
    doc.font('Helvetica-Bold').fontSize(12).fillColor(BRAND).text(section.heading).fillColor(INK);
    doc.font('Helvetica').fontSize(10.5);
    for (const [label, value] of section.rows) {
      doc.font('Helvetica-Bold').text(`${label}: `, { continued: true }).font('Helvetica').text(value);
    }
  }
  if (content.notes?.length) {
    doc.moveDown();
    doc.fontSize(9.5);
    for (const note of content.notes) doc.text(note).moveDown(0.5);
  }
}

/**
 * Answers a PDF made for this request and streamed as it is drawn (nothing kept after it is sent, so
 * many downloads at once cost no more memory than a few pages each): `application/pdf`, the file name in
 * Content-Disposition, never cached, never sniffed.
 */
export async function sendPdf(reply: FastifyReply, fileName: string, content: PdfContent): Promise<Sent> {
  const doc = new PDFDocument({ size: 'A4', margin: 56, info: { Title: content.title } });
  draw(doc, content);
  doc.end();
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  await reply
    .status(200)
    .header('content-type', 'application/pdf')
    .header(
      'content-disposition',
      `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`,
    )
    .header('cache-control', 'no-store')
    .header('x-content-type-options', 'nosniff')
    .send(doc);
  return SENT;
}
