import type { Queryable } from '../../platform/db';

export type ContentKind = 'settings' | 'navigation' | 'page' | 'feature_flags';

export interface ContentRow {
  kind: ContentKind;
  key: string;
  body: unknown;
  contentHash: string;
  updatedAt: Date;
}

interface DbRow {
  kind: ContentKind;
  key: string;
  body: unknown;
  content_hash: string;
  updated_at: Date;
}

const toRow = (r: DbRow): ContentRow => ({
  kind: r.kind,
  key: r.key,
  body: r.body,
  contentHash: r.content_hash,
  updatedAt: r.updated_at,
});

/** Every content item (the whole store is small: one settings row, one navigation row, a few dozen pages). */
export async function listContent(db: Queryable): Promise<ContentRow[]> {
  const { rows } = await db.query<DbRow>(
    'SELECT kind, key, body, content_hash, updated_at FROM content_item ORDER BY kind, key',
  );
  return rows.map(toRow);
}

/**
 * Inserts or replaces one item. A row whose body is unchanged is left alone, so re-seeding the same
 * files changes nothing, while a row edited in the database is put back. Returns true when a row was written.
 */
export async function upsertContent(
  db: Queryable,
  item: { kind: ContentKind; key: string; body: unknown; contentHash: string; now: Date },
): Promise<boolean> {
  const { rowCount } = await db.query(
    `INSERT INTO content_item (kind, key, body, content_hash, updated_at)
     VALUES ($1, $2, $3::jsonb, $4, $5)
     ON CONFLICT (kind, key) DO UPDATE
       SET body = EXCLUDED.body, content_hash = EXCLUDED.content_hash, updated_at = EXCLUDED.updated_at
       WHERE content_item.body IS DISTINCT FROM EXCLUDED.body
          OR content_item.content_hash IS DISTINCT FROM EXCLUDED.content_hash`,
    [item.kind, item.key, JSON.stringify(item.body), item.contentHash, item.now],
  );
  return rowCount > 0;
}

/** Deletes the items of one kind whose keys are not in `keep`. Returns how many went. */
export async function deleteContentExcept(db: Queryable, kind: ContentKind, keep: string[]): Promise<number> {
  const { rowCount } = await db.query(
    'DELETE FROM content_item WHERE kind = $1 AND NOT (key = ANY($2::text[]))',
    [kind, keep],
  );
  return rowCount;
}

/** The fingerprint of the content files last seeded, or null before the first seed. */
export async function getSourceFingerprint(db: Queryable): Promise<string | null> {
  const { rows } = await db.query<{ fingerprint: string }>('SELECT fingerprint FROM content_source');
  return rows[0]?.fingerprint ?? null;
}

export async function setSourceFingerprint(db: Queryable, fingerprint: string, now: Date): Promise<void> {
  await db.query(
    `INSERT INTO content_source (id, fingerprint, seeded_at) VALUES (true, $1, $2)
     ON CONFLICT (id) DO UPDATE SET fingerprint = EXCLUDED.fingerprint, seeded_at = EXCLUDED.seeded_at`,
    [fingerprint, now],
  );
}

/**
 * Forgets which files were seeded last, so the next start reads them again (and reports where one says
 * something else than what was just published from the console).
 */
export async function forgetSourceFingerprint(db: Queryable): Promise<void> {
  await db.query('DELETE FROM content_source');
}
