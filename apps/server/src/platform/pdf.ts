import PDFDocument from 'pdfkit';

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

/** The fonts the documents use: pdfkit's built-in Helvetica, never embedded. */
const FONTS = ['Helvetica', 'Helvetica-Bold'] as const;

/** What of pdfkit's document and font objects the sharing below relies on (not in its public types). */
interface FontInternals {
  _font?: { name?: unknown; font?: unknown } | null;
  _fontFamilies?: Record<string, unknown>;
  _fontCount?: number;
}

let fontTemplates: object[] | null | undefined;

/** pdfkit's parsed metrics of our fonts, made once (null when this pdfkit is not laid out as expected). */
function templates(): object[] | null {
  if (fontTemplates !== undefined) return fontTemplates;
  const probe = new PDFDocument({ autoFirstPage: false }) as PDFKit.PDFDocument & FontInternals;
  const made = FONTS.map((name) => {
    probe.font(name);
    const font = probe._font;
    return font && font.name === name && typeof font.font === 'object' ? font : null;
  });
  fontTemplates = made.every((f) => f !== null) ? made : null;
  return fontTemplates;
}

/**
 * pdfkit parses a standard font's metrics (widths, some 2,700 kerning pairs) again in every document that
 * uses it: two thirds of the CPU of one of our PDFs (decision 010). The parsed metrics never change once
 * made, so every document gets its own font objects (its own ids and PDF dictionaries) sharing the
 * metrics parsed once. The bytes written are the same. Should a pdfkit release lay its fonts out
 * otherwise, nothing is shared and each document parses them as before.
 */
function shareFontMetrics(doc: PDFKit.PDFDocument): void {
  const d = doc as PDFKit.PDFDocument & FontInternals;
  const shared = templates();
  if (shared && d._fontFamilies && typeof d._fontCount === 'number' && d._font === null) {
    for (const template of shared) {
      const font = Object.assign(
        Object.create(Object.getPrototypeOf(template) as object) as object,
        template,
        {
          document: doc,
          id: `F${++d._fontCount}`,
          dictionary: undefined,
          embedded: false,
        },
      );
      d._fontFamilies[(template as { name: string }).name] = font;
    }
  }
  doc.font('Helvetica'); // pdfkit's default font, from the shared metrics when they are there
}

/** A new A4 document in pdfkit's default font, Helvetica. */
function newDocument(title: string): PDFKit.PDFDocument {
  // No default font yet (an empty name sets none): it is set from the shared metrics.
  const doc = new PDFDocument({ size: 'A4', margin: 56, info: { Title: title }, font: '' });
  shareFontMetrics(doc);
  return doc;
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

/** The document as bytes (a page of ours is a few kilobytes). */
export function renderPdf(content: PdfContent): Promise<Buffer> {
  const doc = newDocument(content.title);
  draw(doc, content);
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  doc.end();
  return done;
}

/** `attachment` with the name as ASCII and as UTF-8 (RFC 6266), for a PDF we draw. */
export function pdfDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}
