import { createHash } from 'node:crypto';
import {
  versionOrder,
  type IntegrationResult,
  type SourceVersion,
} from '@portal/contracts/integration/common';
import { writeAudit, writeAuditRows } from '../../platform/audit';
import type { Clock } from '../../platform/clock';
import type { Db, Queryable } from '../../platform/db';
import { HttpError } from '../../platform/errors';

/** Who writes through the integration API: a machine client (or the demo seed, which loads the same way). */
export interface IntegrationActor {
  clientId: string;
  correlationId: string | null;
  /**
   * The demo seed only: a write of the version held with other content replaces it (the seed's version
   * is its day, and the demo data may change within a day) instead of answering 409.
   */
  rewritesSameVersion?: boolean;
}

interface HeldRow {
  version: SourceVersion;
  version_order: string | number;
  content_sha256: string | null;
  removed: boolean;
}

/** The canonical JSON of a record (keys sorted at every level), whose SHA-256 says "same content". */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** The SHA-256 of a record's canonical JSON (the record as sent, without its version): "same content". */
export const contentSha256 = (content: unknown): string => sha256(canonicalJson(content));

/**
 * Runs fn in a transaction of its own, or in the caller's (`within`: the bulk load applies many lines in
 * one transaction, each under a savepoint of its own).
 */
function inTransaction<T>(db: Db, within: Queryable | undefined, fn: (tx: Queryable) => Promise<T>) {
  return within ? fn(within) : db.transaction(fn);
}

/** One record's row, locked for this transaction (an advisory lock, so a first write locks too). */
async function lockHeld(tx: Queryable, type: string, key: string): Promise<HeldRow | undefined> {
  await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`integration:${type}:${key}`]);
  const { rows } = await tx.query<HeldRow>(
    `SELECT version, version_order, content_sha256, removed FROM integration_record
      WHERE record_type = $1 AND record_key = $2`,
    [type, key],
  );
  return rows[0];
}

export function stale(
  type: string,
  key: string,
  sent: SourceVersion,
  held: Pick<HeldRow, 'version'>,
): HttpError {
  return new HttpError(
    409,
    'STALE_VERSION',
    `Version ${String(sent)} of ${type} ${key} is older than the version held, ${String(held.version)}: nothing was changed.`,
    undefined,
    undefined,
    { heldVersion: held.version },
  );
}

export function conflict(type: string, key: string, held: Pick<HeldRow, 'version'>): HttpError {
  return new HttpError(
    409,
    'VERSION_CONFLICT',
    `Version ${String(held.version)} of ${type} ${key} is held with other content: send a newer version.`,
    undefined,
    undefined,
    { heldVersion: held.version },
  );
}

async function record(
  tx: Queryable,
  clock: Clock,
  row: {
    type: string;
    key: string;
    version: SourceVersion;
    contentSha256: string | null;
    customerId: string | null;
    clientId: string;
  },
): Promise<void> {
  await tx.query(
    `INSERT INTO integration_record (record_type, record_key, version, version_order, content_sha256, removed,
                                     customer_id, client_id, updated_at)
     VALUES ($1, $2, $3::jsonb, $4, $5::text, $5::text IS NULL, $6, $7, $8)
     ON CONFLICT (record_type, record_key) DO UPDATE SET version = EXCLUDED.version, line_sha256 = NULL,
       version_order = EXCLUDED.version_order, content_sha256 = EXCLUDED.content_sha256,
       removed = EXCLUDED.removed, customer_id = coalesce(EXCLUDED.customer_id, integration_record.customer_id),
       client_id = EXCLUDED.client_id, updated_at = EXCLUDED.updated_at`,
    [
      row.type,
      row.key,
      JSON.stringify(row.version),
      versionOrder(row.version),
      row.contentSha256,
      row.customerId,
      row.clientId,
      clock.now(),
    ],
  );
}

/**
 * Writes one record through `write`, in one transaction with its bookkeeping and audit row, unless the
 * version held is newer (409 STALE_VERSION, nothing written) or the same with other content (409
 * VERSION_CONFLICT). The same version and content again is `unchanged` and writes nothing. `write` may
 * throw an HttpError (a reference not held: 422), which rolls everything back.
 */
export async function upsertVersioned(
  db: Db,
  clock: Clock,
  input: {
    type: string;
    key: string;
    version: SourceVersion;
    /** The record as sent, without its version: what "same content" compares. */
    content: unknown;
    /** Whose the record is, read in the write's transaction. */
    customerId: (tx: Queryable) => Promise<string | null>;
  },
  actor: IntegrationActor,
  write: (tx: Queryable) => Promise<void>,
  within?: Queryable,
): Promise<IntegrationResult> {
  const digest = contentSha256(input.content);
  const order = versionOrder(input.version);
  return inTransaction(db, within, async (tx) => {
    const held = await lockHeld(tx, input.type, input.key);
    if (held) {
      const heldOrder = Number(held.version_order);
      if (order < heldOrder) throw stale(input.type, input.key, input.version, held);
      if (order === heldOrder) {
        if (!held.removed && held.content_sha256 === digest) {
          return { type: input.type, key: input.key, status: 'unchanged', version: held.version };
        }
        if (!actor.rewritesSameVersion) throw conflict(input.type, input.key, held);
      }
    }
    await write(tx);
    const status = held && !held.removed ? 'updated' : 'created';
    const customerId = await input.customerId(tx);
    await record(tx, clock, { ...input, customerId, contentSha256: digest, clientId: actor.clientId });
    await writeAudit(tx, {
      source: 'server',
      eventId: `integration.${input.type}.${status}`,
      customerId,
      onBehalfOf: `client:${actor.clientId}`,
      correlationId: actor.correlationId,
      isSuccess: true,
      occurredAt: clock.now(),
      details: { clientId: actor.clientId, type: input.type, key: input.key, version: input.version },
    });
    return { type: input.type, key: input.key, status, version: input.version };
  });
}

/**
 * Removes one record through `remove` (which answers the customer it belonged to, or null when nothing
 * was there), leaving a tombstone with the version, in one transaction with its audit row. An older
 * version than the one held is 409; removing what is already removed is `unchanged`.
 */
export async function removeVersioned(
  db: Db,
  clock: Clock,
  input: { type: string; key: string; version: SourceVersion },
  actor: IntegrationActor,
  remove: (tx: Queryable) => Promise<{ customerId: string | null } | null>,
  within?: Queryable,
): Promise<IntegrationResult> {
  const order = versionOrder(input.version);
  return inTransaction(db, within, async (tx) => {
    const held = await lockHeld(tx, input.type, input.key);
    if (held && order < Number(held.version_order)) throw stale(input.type, input.key, input.version, held);
    if (held?.removed) {
      if (order > Number(held.version_order)) {
        await record(tx, clock, {
          ...input,
          contentSha256: null,
          customerId: null,
          clientId: actor.clientId,
        });
      }
      return { type: input.type, key: input.key, status: 'unchanged', version: input.version };
    }
    const removed = await remove(tx);
    await record(tx, clock, {
      ...input,
      contentSha256: null,
      customerId: removed?.customerId ?? null,
      clientId: actor.clientId,
    });
    await writeAudit(tx, {
      source: 'server',
      eventId: `integration.${input.type}.removed`,
      customerId: removed?.customerId ?? null,
      onBehalfOf: `client:${actor.clientId}`,
      correlationId: actor.correlationId,
      isSuccess: true,
      occurredAt: clock.now(),
      details: {
        clientId: actor.clientId,
        type: input.type,
        key: input.key,
        version: input.version,
        found: removed !== null,
      },
    });
    return { type: input.type, key: input.key, status: 'removed', version: input.version };
  });
}

/** One write a bulk load made in a set (status created or updated), for its bookkeeping and audit rows. */
export interface SetWrite {
  type: string;
  key: string;
  version: SourceVersion;
  contentSha256: string;
  /** The SHA-256 of the bulk line's text (integration_record.line_sha256). */
  lineSha256: string;
  customerId: string | null;
  status: 'created' | 'updated';
}

/**
 * The bookkeeping row and the audit row of each write of a set (each record at most once), as
 * upsertVersioned writes them one at a time: two statements for the whole set.
 */
export async function recordSetWrites(
  tx: Queryable,
  clock: Clock,
  actor: IntegrationActor,
  writes: readonly SetWrite[],
): Promise<void> {
  if (writes.length === 0) return;
  const now = clock.now();
  await tx.query(
    `INSERT INTO integration_record (record_type, record_key, version, version_order, content_sha256, removed,
                                     customer_id, client_id, updated_at, line_sha256)
     SELECT record_type, record_key, version::jsonb, version_order, content_sha256, false, customer_id, $6, $7,
            line_sha256
       FROM unnest($1::text[], $2::text[], $3::text[], $4::numeric[], $5::text[], $8::text[], $9::text[])
         AS r (record_type, record_key, version, version_order, content_sha256, customer_id, line_sha256)
     ON CONFLICT (record_type, record_key) DO UPDATE SET version = EXCLUDED.version,
       line_sha256 = EXCLUDED.line_sha256,
       version_order = EXCLUDED.version_order, content_sha256 = EXCLUDED.content_sha256,
       removed = EXCLUDED.removed, customer_id = coalesce(EXCLUDED.customer_id, integration_record.customer_id),
       client_id = EXCLUDED.client_id, updated_at = EXCLUDED.updated_at`,
    [
      writes.map((w) => w.type),
      writes.map((w) => w.key),
      writes.map((w) => JSON.stringify(w.version)),
      writes.map((w) => versionOrder(w.version)),
      writes.map((w) => w.contentSha256),
      actor.clientId,
      now,
      writes.map((w) => w.customerId),
      writes.map((w) => w.lineSha256),
    ],
  );
  await writeAuditRows(
    tx,
    writes.map((w) => ({
      source: 'server' as const,
      eventId: `integration.${w.type}.${w.status}`,
      customerId: w.customerId,
      onBehalfOf: `client:${actor.clientId}`,
      correlationId: actor.correlationId,
      isSuccess: true,
      occurredAt: now,
      details: { clientId: actor.clientId, type: w.type, key: w.key, version: w.version },
    })),
  );
}
