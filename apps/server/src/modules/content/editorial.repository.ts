import type { Queryable } from '../../platform/db';

/*
 * The content items' published versions, drafts, differences from the files, previews and the store's
 * revision (issue 42, migration 220). SQL only.
 */

export type VersionSource = 'file' | 'console' | 'rollback' | 'operations';

export interface VersionRow {
  item: string;
  version: number;
  body: unknown;
  source: VersionSource;
  publishedBy: string | null;
  publishedByName: string | null;
  editedByName: string | null;
  reason: string | null;
  restoredVersion: number | null;
  publishedAt: Date;
}

interface DbVersion {
  item: string;
  version: number;
  body: unknown;
  source: VersionSource;
  published_by: string | null;
  published_by_name: string | null;
  edited_by_name: string | null;
  reason: string | null;
  restored_version: number | null;
  published_at: Date;
}

const toVersion = (r: DbVersion): VersionRow => ({
  item: r.item,
  version: Number(r.version),
  body: r.body,
  source: r.source,
  publishedBy: r.published_by,
  publishedByName: r.published_by_name,
  editedByName: r.edited_by_name,
  reason: r.reason,
  restoredVersion: r.restored_version === null ? null : Number(r.restored_version),
  publishedAt: r.published_at,
});

const VERSION_COLUMNS =
  'item, version, body, source, published_by, published_by_name, edited_by_name, reason, restored_version, published_at';

/** The published (newest) version of every item. */
export async function latestVersions(db: Queryable): Promise<Map<string, VersionRow>> {
  const { rows } = await db.query<DbVersion>(
    `SELECT DISTINCT ON (item) ${VERSION_COLUMNS} FROM content_version ORDER BY item, version DESC`,
  );
  return new Map(rows.map((r) => [r.item, toVersion(r)]));
}

/** Every version of one item, newest first. */
export async function versionsOf(db: Queryable, item: string): Promise<VersionRow[]> {
  const { rows } = await db.query<DbVersion>(
    `SELECT ${VERSION_COLUMNS} FROM content_version WHERE item = $1 ORDER BY version DESC`,
    [item],
  );
  return rows.map(toVersion);
}

export async function insertVersion(tx: Queryable, v: VersionRow): Promise<void> {
  await tx.query(
    `INSERT INTO content_version (${VERSION_COLUMNS})
     VALUES ($1, $2, $3::jsonb, $4, $5, $6, $7, $8, $9, $10)`,
    [
      v.item,
      v.version,
      JSON.stringify(v.body),
      v.source,
      v.publishedBy,
      v.publishedByName,
      v.editedByName,
      v.reason,
      v.restoredVersion,
      v.publishedAt,
    ],
  );
}

export interface DraftRow {
  item: string;
  body: unknown;
  baseVersion: number;
  state: 'editing' | 'submitted';
  editedBy: string;
  editedByName: string;
  updatedAt: Date;
}

interface DbDraft {
  item: string;
  body: unknown;
  base_version: number;
  state: 'editing' | 'submitted';
  edited_by: string;
  edited_by_name: string;
  updated_at: Date;
}

const toDraft = (r: DbDraft): DraftRow => ({
  item: r.item,
  body: r.body,
  baseVersion: Number(r.base_version),
  state: r.state,
  editedBy: r.edited_by,
  editedByName: r.edited_by_name,
  updatedAt: r.updated_at,
});

export async function listDrafts(db: Queryable): Promise<Map<string, DraftRow>> {
  const { rows } = await db.query<DbDraft>(
    'SELECT item, body, base_version, state, edited_by, edited_by_name, updated_at FROM content_draft',
  );
  return new Map(rows.map((r) => [r.item, toDraft(r)]));
}

/** One item's draft; `forUpdate` locks it for the transaction (a publish). */
export async function getDraft(db: Queryable, item: string, forUpdate = false): Promise<DraftRow | null> {
  const { rows } = await db.query<DbDraft>(
    `SELECT item, body, base_version, state, edited_by, edited_by_name, updated_at FROM content_draft
      WHERE item = $1${forUpdate ? ' FOR UPDATE' : ''}`,
    [item],
  );
  return rows[0] ? toDraft(rows[0]) : null;
}

export async function putDraft(tx: Queryable, d: DraftRow): Promise<void> {
  await tx.query(
    `INSERT INTO content_draft (item, body, base_version, state, edited_by, edited_by_name, updated_at)
     VALUES ($1, $2::jsonb, $3, $4, $5, $6, $7)
     ON CONFLICT (item) DO UPDATE SET body = EXCLUDED.body, base_version = EXCLUDED.base_version,
       state = EXCLUDED.state, edited_by = EXCLUDED.edited_by, edited_by_name = EXCLUDED.edited_by_name,
       updated_at = EXCLUDED.updated_at`,
    [d.item, JSON.stringify(d.body), d.baseVersion, d.state, d.editedBy, d.editedByName, d.updatedAt],
  );
}

export async function deleteDraft(tx: Queryable, item: string): Promise<void> {
  await tx.query('DELETE FROM content_draft WHERE item = $1', [item]);
}

export interface FileConflictRow {
  item: string;
  fileBody: unknown;
  detectedAt: Date;
}

export async function listFileConflicts(db: Queryable): Promise<Map<string, FileConflictRow>> {
  const { rows } = await db.query<{ item: string; file_body: unknown; detected_at: Date }>(
    'SELECT item, file_body, detected_at FROM content_file_conflict ORDER BY item',
  );
  return new Map(
    rows.map((r) => [r.item, { item: r.item, fileBody: r.file_body, detectedAt: r.detected_at }]),
  );
}

export async function putFileConflict(
  tx: Queryable,
  item: string,
  fileBody: unknown,
  now: Date,
): Promise<void> {
  await tx.query(
    `INSERT INTO content_file_conflict (item, file_body, detected_at) VALUES ($1, $2::jsonb, $3)
     ON CONFLICT (item) DO UPDATE SET file_body = EXCLUDED.file_body,
       detected_at = CASE WHEN content_file_conflict.file_body = EXCLUDED.file_body
                          THEN content_file_conflict.detected_at ELSE EXCLUDED.detected_at END`,
    [item, JSON.stringify(fileBody), now],
  );
}

/** Forgets the items' differences from their files except those in `keep`. */
export async function clearFileConflictsExcept(tx: Queryable, keep: readonly string[]): Promise<void> {
  await tx.query('DELETE FROM content_file_conflict WHERE NOT (item = ANY($1::text[]))', [keep]);
}

export async function deleteFileConflict(tx: Queryable, item: string): Promise<void> {
  await tx.query('DELETE FROM content_file_conflict WHERE item = $1', [item]);
}

export async function insertPreview(
  db: Queryable,
  p: { tokenHash: string; item: string; body: unknown; expiresAt: Date; now: Date },
): Promise<void> {
  await db.query('DELETE FROM content_preview WHERE expires_at <= $1', [p.now]);
  await db.query(
    'INSERT INTO content_preview (token_hash, item, body, expires_at) VALUES ($1, $2, $3::jsonb, $4)',
    [p.tokenHash, p.item, JSON.stringify(p.body), p.expiresAt],
  );
}

export async function getPreview(
  db: Queryable,
  tokenHash: string,
  now: Date,
): Promise<{ item: string; body: unknown } | null> {
  const { rows } = await db.query<{ item: string; body: unknown }>(
    'SELECT item, body FROM content_preview WHERE token_hash = $1 AND expires_at > $2',
    [tokenHash, now],
  );
  return rows[0] ?? null;
}

/** The channel a publish is announced on to every instance (its payload: the new revision). */
export const CONTENT_CHANNEL = 'content_published';

/**
 * Moves the store's revision on and announces it as the transaction commits. Taking the revision's row
 * lock first also puts publishes one after another, so each writes the store from the versions before it.
 */
export async function bumpRevision(tx: Queryable): Promise<number> {
  const { rows } = await tx.query<{ revision: string | number }>(
    'UPDATE content_revision SET revision = revision + 1 RETURNING revision',
  );
  const revision = Number(rows[0]?.revision ?? 0);
  await tx.query('SELECT pg_notify($1, $2)', [CONTENT_CHANNEL, String(revision)]);
  return revision;
}

/** The store's revision now: one row, read every few seconds by each instance. */
export async function currentRevision(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ revision: string | number }>('SELECT revision FROM content_revision');
  return Number(rows[0]?.revision ?? 0);
}
