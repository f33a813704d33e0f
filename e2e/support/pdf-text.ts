import { inflateSync } from 'node:zlib';

/**
 * The text a PDF made by pdfkit draws, in order: its compressed content streams' TJ strings (the built-in
 * fonts' WinAnsi codes, written as hex). pdfkit breaks long lines at spaces and keeps them, so the strings
 * join back into the sentences written. Enough for our leaflets and documents, not a general PDF reader.
 */
export function pdfText(bytes: Buffer): string {
  const source = bytes.toString('latin1');
  let text = '';
  for (const match of source.matchAll(/stream\r?\n/g)) {
    const start = match.index + match[0].length;
    const end = source.indexOf('endstream', start);
    let stream: string;
    try {
      stream = inflateSync(bytes.subarray(start, end)).toString('latin1');
    } catch {
      continue; // not a compressed content stream
    }
    for (const [array] of stream.matchAll(/\[[^\]]*\]\s*TJ/g))
      for (const [, hex] of array.matchAll(/<([0-9a-fA-F]*)>/g))
        text += Buffer.from(hex ?? '', 'hex').toString('latin1');
  }
  return text;
}
