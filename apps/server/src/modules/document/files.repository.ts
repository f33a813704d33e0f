import type { Queryable } from '../../platform/db';

/** A document's PDF as the insurer made it: the file's id (SHA-256 of its bytes) and its download name. */
export interface FileRef {
  sha256: string;
  fileName: string;
}

/** Stores a file unless it is held already; answers whether this call stored it. */
export async function insertFile(
  q: Queryable,
  file: { sha256: string; content: Uint8Array; createdAt: Date },
): Promise<boolean> {
  const { rowCount } = await q.query(
    `INSERT INTO document_file (sha256, size, content, created_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (sha256) DO NOTHING`,
    [file.sha256, file.content.byteLength, file.content, file.createdAt],
  );
  return rowCount > 0;
}

/**
 * Which of these files are held, each locked against removal until the transaction ends (so a file
 * released by another transaction meanwhile is either seen gone here, or kept by the reference made here).
 */
export async function lockHeldFiles(q: Queryable, sha256s: readonly string[]): Promise<Set<string>> {
  if (sha256s.length === 0) return new Set();
  const { rows } = await q.query<{ sha256: string }>(
    'SELECT sha256 FROM document_file WHERE sha256 = ANY($1::text[]) FOR KEY SHARE',
    [[...new Set(sha256s)]],
  );
  return new Set(rows.map((r) => r.sha256));
}

/** The bytes of a file, or null when it is not held. */
export async function fileContent(q: Queryable, sha256: string): Promise<Buffer | null> {
  const { rows } = await q.query<{ content: Uint8Array }>(
    'SELECT content FROM document_file WHERE sha256 = $1',
    [sha256],
  );
  const content = rows[0]?.content;
  return content ? Buffer.from(content.buffer, content.byteOffset, content.byteLength) : null;
}
