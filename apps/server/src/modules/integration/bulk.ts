import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { z } from 'zod';
import type { IntegrationScope } from '@portal/contracts/call';
import {
  BULK_MAX_LINE_BYTES,
  bulkLine,
  type BulkLineResult,
  type BulkSummary,
} from '@portal/contracts/integration/bulk';
import { versionOrder, type SourceVersion } from '@portal/contracts/integration/common';
import { HttpError } from '../../platform/errors';
import { unstorableFields } from '../../platform/input-guard';
import { DatabaseUnavailableError, type Queryable } from '../../platform/db';
import type { IntegrationContext } from './context';
import { parseInput } from '../../platform/validate';
import type { BulkSet, IntegrationResource } from './service';
import {
  conflict,
  contentSha256,
  recordSetWrites,
  stale,
  type IntegrationActor,
  type SetWrite,
} from './versioned';

/** One line of the input: its text, or the fact that it was longer than a line may be. */
type RawLine = { number: number; text: string } | { number: number; tooLong: true };

const NEWLINE = 0x0a;

/** Lines applied in one transaction, at most (and at most about BULK_BATCH_BYTES of them). */
const BULK_BATCH_LINES = 1000;
const BULK_BATCH_BYTES = 4 * 1024 * 1024;
/** Lines checked between two turns of the event loop. */
const PREPARE_SLICE = 50;

/**
 * The lines of an NDJSON stream, numbered from 1, without holding more than one line (at most
 * `maxBytes`) in memory: a longer line is reported as too long and skipped up to its newline.
 */
export async function* ndjsonLines(stream: AsyncIterable<Buffer | string>, maxBytes = BULK_MAX_LINE_BYTES) {
  let parts: Buffer[] = [];
  let size = 0;
  let skipping = false;
  let number = 0;
  const finish = (): RawLine | undefined => {
    number += 1;
    if (skipping) {
      skipping = false;
      return { number, tooLong: true };
    }
    const text = Buffer.concat(parts, size).toString('utf8');
    parts = [];
    size = 0;
    return { number, text };
  };
  for await (const chunk of stream) {
    let buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    for (let at = buffer.indexOf(NEWLINE); at !== -1; at = buffer.indexOf(NEWLINE)) {
      if (!skipping) {
        if (size + at > maxBytes) skipping = true;
        else {
          parts.push(buffer.subarray(0, at));
          size += at;
        }
      }
      const line = finish();
      if (line) yield line;
      buffer = buffer.subarray(at + 1);
    }
    if (skipping || buffer.length === 0) continue;
    if (size + buffer.length > maxBytes) {
      skipping = true;
      parts = [];
      size = 0;
    } else {
      parts.push(buffer);
      size += buffer.length;
    }
  }
  if (skipping || size > 0) {
    const line = finish();
    if (line) yield line;
  }
}

function refused(
  line: number,
  status: number,
  code: string,
  message: string,
  extra: Partial<BulkLineResult> & { fieldErrors?: Record<string, string>; heldVersion?: SourceVersion } = {},
): BulkLineResult {
  const { fieldErrors, heldVersion, ...rest } = extra;
  return {
    line,
    ...rest,
    status: 'refused',
    error: {
      status,
      code,
      message,
      ...(fieldErrors ? { fieldErrors } : {}),
      ...(heldVersion !== undefined ? { heldVersion } : {}),
    },
  };
}

/** A 400's field errors, each named from the line's top (`record.firstName`, not `firstName`). */
function prefixed(error: HttpError, prefix: string): Record<string, string> | undefined {
  if (!error.fieldErrors) return undefined;
  return Object.fromEntries(Object.entries(error.fieldErrors).map(([k, v]) => [`${prefix}.${k}`, v]));
}

/** A line refused for an error the single-record call would have answered (400, 403, 409, 422...). */
function refusal(number: number, ids: { type: string; key: string }, error: HttpError): BulkLineResult {
  const fieldErrors =
    error.statusCode === 400 && error.message === 'The request params is not valid.'
      ? { key: Object.values(error.fieldErrors ?? {})[0] ?? 'Not a valid key' }
      : error.fieldErrors;
  return refused(number, error.statusCode, error.code, error.message, {
    ...ids,
    ...(fieldErrors ? { fieldErrors } : {}),
    ...(typeof error.extra?.['heldVersion'] !== 'undefined'
      ? { heldVersion: error.extra['heldVersion'] as SourceVersion }
      : {}),
  });
}

/** A line checked (JSON, schema, type, scope, key, record) and ready to apply. */
interface Item {
  line: number;
  type: string;
  key: string;
  resource: IntegrationResource;
  /** The SHA-256 of the line's text. */
  lineDigest: string;
  /** The upsert's record (version included), or undefined for a removal. */
  record?: { version: SourceVersion };
  version: SourceVersion;
  order: number;
  /** The upsert's content digest (as versioned.ts computes it). */
  digest?: string;
}

/**
 * An upsert checked up to its key, its record not yet: the record is checked only when the line is not
 * the very text that wrote the version held (then it is `unchanged` whatever a check would find).
 */
interface Unchecked {
  line: number;
  type: string;
  key: string;
  resource: IntegrationResource;
  lineDigest: string;
  sent: unknown;
}

type Prepared = BulkLineResult | Item | Unchecked;

const isResult = (p: Prepared): p is BulkLineResult => !('resource' in p);
const isUnchecked = (p: Prepared): p is Unchecked => 'sent' in p;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * Checks one line as the single-record call would, up to the record of an upsert (nothing read from the
 * database): the removal to apply, the upsert whose record is still to check, the refused result, or
 * undefined for a blank line.
 */
function prepareLine(
  ctx: IntegrationContext,
  number: number,
  text: string,
  scopes: ReadonlySet<string> | 'all',
): Prepared | undefined {
  if (text.trim() === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return refused(number, 400, 'INVALID_JSON', 'The line is not valid JSON.');
  }
  const unstorable = unstorableFields(value);
  if (unstorable.length > 0) {
    return refused(number, 400, 'BAD_REQUEST', 'The line contains characters that are not allowed.', {
      fieldErrors: Object.fromEntries(
        unstorable.map((f) => [f, 'Contains characters that are not allowed.']),
      ),
    });
  }
  let line: z.infer<typeof bulkLine>;
  try {
    line = parseInput(bulkLine, value, 'body');
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    return refused(number, 400, 'BAD_REQUEST', 'The line is not valid.', { fieldErrors: error.fieldErrors });
  }
  const ids = { type: line.type, key: line.key };
  const resource = ctx.services.integration.resource(line.type);
  if (!resource) {
    return refused(number, 400, 'BAD_REQUEST', `There is no record type ${line.type}.`, {
      ...ids,
      fieldErrors: { type: 'Unknown record type' },
    });
  }
  if (scopes !== 'all' && !scopes.has(resource.scope)) {
    return refused(
      number,
      403,
      'FORBIDDEN',
      `This client may not do that: it needs the ${resource.scope} scope.`,
      ids,
    );
  }
  try {
    const key = parseInput(resource.key, line.key, 'params');
    const found = { line: number, type: line.type, key, resource, lineDigest: sha256(text) };
    if (line.op !== 'remove') return { ...found, sent: line.record };
    if (line.version === undefined) {
      throw new HttpError(400, 'BAD_REQUEST', 'A removal needs the version.', { version: 'Required' });
    }
    return { ...found, version: line.version, order: versionOrder(line.version) };
  } catch (error) {
    if (!(error instanceof HttpError) || error.statusCode >= 500) throw error;
    return refusal(number, ids, error);
  }
}

/** Checks an upsert's record: the item to apply, or the refused result. */
function checkRecord(u: Unchecked): Item | BulkLineResult {
  let record: { version: SourceVersion };
  try {
    record = parseInput(u.resource.record, u.sent, 'body');
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    return refusal(
      u.line,
      { type: u.type, key: u.key },
      new HttpError(400, 'BAD_REQUEST', 'The record is not valid.', prefixed(error, 'record')),
    );
  }
  const { version, ...content } = record;
  return {
    line: u.line,
    type: u.type,
    key: u.key,
    resource: u.resource,
    lineDigest: u.lineDigest,
    record,
    version,
    order: versionOrder(version),
    digest: contentSha256(content),
  };
}

/** The version a record is held at, as the batch has it so far. */
interface Held {
  version: SourceVersion;
  order: number;
  digest: string | null;
  removed: boolean;
  /** The SHA-256 of the bulk line that wrote it in a set, or null. */
  line: string | null;
}

const recordId = (type: string, key: string) => `${type}:${key}`;

/**
 * Takes the lock of every record the lines name (the advisory lock each single-record write takes, in
 * one statement, in a fixed order so two loads cannot deadlock) and reads the versions held.
 */
async function lockAndRead(
  tx: Queryable,
  items: ReadonlyArray<Item | Unchecked>,
): Promise<Map<string, Held>> {
  const held = new Map<string, Held>();
  if (items.length === 0) return held;
  const locks = [...new Set(items.map((i) => `integration:${i.type}:${i.key}`))].sort();
  await tx.query(
    `SELECT count(pg_advisory_xact_lock(hashtextextended(k, 0)))
       FROM (SELECT k FROM unnest($1::text[]) AS k ORDER BY k) AS keys`,
    [locks],
  );
  const distinct = new Map(items.map((i) => [recordId(i.type, i.key), i]));
  const { rows } = await tx.query<{
    record_type: string;
    record_key: string;
    version: SourceVersion;
    version_order: string | number;
    content_sha256: string | null;
    removed: boolean;
    line_sha256: string | null;
  }>(
    `SELECT record_type, record_key, version, version_order, content_sha256, removed, line_sha256
       FROM integration_record
      WHERE (record_type, record_key) IN (SELECT * FROM unnest($1::text[], $2::text[]))`,
    [[...distinct.values()].map((i) => i.type), [...distinct.values()].map((i) => i.key)],
  );
  for (const row of rows) {
    held.set(recordId(row.record_type, row.record_key), {
      version: row.version,
      order: Number(row.version_order),
      digest: row.content_sha256,
      removed: row.removed,
      line: row.line_sha256,
    });
  }
  return held;
}

/** The line digests held of the records, read outside any transaction: a hint, checked again under the lock. */
async function linesHeld(db: Queryable, items: readonly Unchecked[]): Promise<Map<string, string>> {
  if (items.length === 0) return new Map();
  const { rows } = await db.query<{ record_type: string; record_key: string; line_sha256: string }>(
    `SELECT record_type, record_key, line_sha256 FROM integration_record
      WHERE (record_type, record_key) IN (SELECT * FROM unnest($1::text[], $2::text[]))
        AND line_sha256 IS NOT NULL AND NOT removed`,
    [items.map((i) => i.type), items.map((i) => i.key)],
  );
  return new Map(rows.map((r) => [recordId(r.record_type, r.record_key), r.line_sha256]));
}

/**
 * What a line comes to against the version held: its answer when nothing is to be written (stale,
 * conflicting, unchanged), `set` when it is an upsert its type writes in sets, `line` when it is applied
 * on its own (a removal, a type without a set writer, a tombstone's newer version).
 */
function decide(
  item: Item,
  held: Held | undefined,
  actor: IntegrationActor,
): BulkLineResult | 'set' | 'line' {
  const ids = { type: item.type, key: item.key };
  if (held && item.order < held.order)
    return refusal(item.line, ids, stale(item.type, item.key, item.version, held));
  if (item.record === undefined) {
    if (!held?.removed) return 'line';
    if (item.order > held.order) return 'line';
    return { line: item.line, ...ids, status: 'unchanged', version: item.version };
  }
  if (held && item.order === held.order) {
    if (!held.removed && held.digest === item.digest) {
      return { line: item.line, ...ids, status: 'unchanged', version: held.version };
    }
    if (!actor.rewritesSameVersion) return refusal(item.line, ids, conflict(item.type, item.key, held));
  }
  return item.resource.upsertMany ? 'set' : 'line';
}

/** The version held once a line's result is in. */
function heldAfter(
  item: Item,
  result: BulkLineResult,
  before: Held | undefined,
  inSet: boolean,
): Held | undefined {
  if (result.status === 'created' || result.status === 'updated') {
    return {
      version: item.version,
      order: item.order,
      digest: item.digest ?? null,
      removed: false,
      line: inSet ? item.lineDigest : null,
    };
  }
  if (result.status === 'removed') {
    return { version: item.version, order: item.order, digest: null, removed: true, line: null };
  }
  if (result.status === 'unchanged' && before?.removed && item.order > before.order) {
    return { ...before, version: item.version, order: item.order, line: null };
  }
  return before;
}

/**
 * Applies one line on its own, exactly as the single-record call would, under a savepoint: a refused line
 * changes nothing. Throws only when the load cannot go on (the database is unavailable).
 */
async function applyOne(
  ctx: IntegrationContext,
  tx: Queryable,
  item: Item,
  actor: IntegrationActor,
): Promise<BulkLineResult> {
  await tx.query('SAVEPOINT bulk_line');
  try {
    const result =
      item.record === undefined
        ? await ctx.services.integration.remove(item.type, item.key, item.version, actor, tx)
        : await ctx.services.integration.upsert(item.type, item.key, item.record, actor, tx);
    await tx.query('RELEASE SAVEPOINT bulk_line');
    return { line: item.line, ...result };
  } catch (error) {
    if (!(error instanceof HttpError) || error.statusCode >= 500) throw error;
    await tx.query('ROLLBACK TO SAVEPOINT bulk_line');
    return refusal(item.line, { type: item.type, key: item.key }, error);
  }
}

/**
 * Writes a set of upserts (each record at most once, all of types with a set writer): each type's
 * records in a few statements, in the order the service lists the types, then the bookkeeping and audit
 * rows of those written in two more. Answers each line's result.
 */
async function writeSet(
  ctx: IntegrationContext,
  tx: Queryable,
  items: readonly Item[],
  held: ReadonlyMap<string, Held>,
  actor: IntegrationActor,
): Promise<BulkLineResult[]> {
  const statusOf = (i: Item) => {
    const h = held.get(recordId(i.type, i.key));
    return h && !h.removed ? ('updated' as const) : ('created' as const);
  };
  const createdOn = new Map(
    items.filter((i) => statusOf(i) === 'created').map((i) => [recordId(i.type, i.key), i.line]),
  );
  const set: BulkSet = {
    createdAfter: (type, key, line) => (createdOn.get(recordId(type, key)) ?? 0) > line,
  };
  const refusals = new Map<number, HttpError>();
  for (const type of ctx.services.integration.types()) {
    const mine = items.filter((i) => i.type === type);
    if (mine.length === 0) continue;
    const answers = await mine[0]!.resource.upsertMany!(
      tx,
      mine.map((i) => ({ key: i.key, record: i.record!, line: i.line })),
      set,
    );
    answers.forEach((error, n) => {
      if (error) refusals.set(mine[n]!.line, error);
    });
  }
  const writes: SetWrite[] = [];
  const results: BulkLineResult[] = [];
  for (const item of items) {
    const ids = { type: item.type, key: item.key };
    const error = refusals.get(item.line);
    if (error) {
      results.push(refusal(item.line, ids, error));
      continue;
    }
    const status = statusOf(item);
    writes.push({
      ...ids,
      version: item.version,
      contentSha256: item.digest!,
      lineSha256: item.lineDigest,
      customerId: await item.resource.customerOf(tx, item.key, item.record!),
      status,
    });
    results.push({ line: item.line, ...ids, status, version: item.version });
  }
  await recordSetWrites(tx, ctx.clock, actor, writes);
  return results;
}

/**
 * Applies a batch of lines in the caller's transaction, with the results each line would have had applied
 * on its own, in order. The versions held are read for the whole batch at once, so a line that writes
 * nothing (unchanged, stale, conflicting) costs no statement; the upserts of types with a set writer are
 * gathered into sets (a set ends before a second line for one of its records, or a line applied on its
 * own) and written a few statements per type. Should a set's statements fail (a constraint its checks
 * did not foresee), the set is rolled back and its lines applied one by one.
 */
async function applyBatch(
  ctx: IntegrationContext,
  tx: Queryable,
  prepared: readonly Prepared[],
  actor: IntegrationActor,
): Promise<BulkLineResult[]> {
  const held = await lockAndRead(
    tx,
    prepared.filter((p): p is Item | Unchecked => !isResult(p)),
  );
  const results = new Map<number, BulkLineResult>();
  const settle = (item: Item, result: BulkLineResult, inSet = false) => {
    results.set(item.line, result);
    const id = recordId(item.type, item.key);
    const after = heldAfter(item, result, held.get(id), inSet);
    if (after) held.set(id, after);
  };
  let pending: Item[] = [];
  let pendingIds = new Set<string>();
  const flush = async () => {
    if (pending.length === 0) return;
    const set = pending;
    pending = [];
    pendingIds = new Set();
    await tx.query('SAVEPOINT bulk_set');
    let written: BulkLineResult[];
    try {
      written = await writeSet(ctx, tx, set, held, actor);
      await tx.query('RELEASE SAVEPOINT bulk_set');
    } catch (error) {
      if (error instanceof DatabaseUnavailableError) throw error;
      await tx.query('ROLLBACK TO SAVEPOINT bulk_set');
      for (const item of set) settle(item, await applyOne(ctx, tx, item, actor));
      return;
    }
    set.forEach((item, n) => settle(item, written[n]!, true));
  };
  for (const next of prepared) {
    if (isResult(next)) {
      results.set(next.line, next);
      continue;
    }
    const id = recordId(next.type, next.key);
    if (pendingIds.has(id)) await flush();
    let p: Item;
    if (isUnchecked(next)) {
      // The very line that wrote the version held, nothing written since: unchanged, as the full check
      // would find (the same version, the same content).
      const h = held.get(id);
      if (h && !h.removed && h.line === next.lineDigest) {
        results.set(next.line, {
          line: next.line,
          type: next.type,
          key: next.key,
          status: 'unchanged',
          version: h.version,
        });
        continue;
      }
      const checked = checkRecord(next);
      if (isResult(checked)) {
        results.set(next.line, checked);
        continue;
      }
      p = checked;
    } else p = next;
    const decided = decide(p, held.get(id), actor);
    if (decided === 'set') {
      pending.push(p);
      pendingIds.add(id);
    } else if (decided === 'line') {
      await flush();
      settle(p, await applyOne(ctx, tx, p, actor));
    } else results.set(p.line, decided);
  }
  await flush();
  return prepared.map((p) => results.get(p.line)!);
}

/**
 * A bulk load: each line of `input` applied with the result it would have had on its own, in order, its
 * result yielded once applied (in batches), then a summary. `scopes` limits what the client may write
 * ('all' for the operator's import). Nothing is all-or-nothing: a refused line is reported and the load
 * goes on; if the database becomes unavailable the load stops, everything before stays, and the same file
 * sent again resumes (its applied lines answer `unchanged`).
 */
export async function* bulkLoad(
  ctx: IntegrationContext,
  input: AsyncIterable<Buffer | string>,
  actor: IntegrationActor,
  scopes: readonly IntegrationScope[] | 'all',
  options: { fromLine?: number } = {},
): AsyncGenerator<BulkLineResult | BulkSummary> {
  const allowed = scopes === 'all' ? 'all' : new Set<string>(scopes);
  const summary: BulkSummary['summary'] = {
    lines: 0,
    created: 0,
    updated: 0,
    unchanged: 0,
    removed: 0,
    refused: 0,
  };
  const from = options.fromLine ?? 1;
  let batch: RawLine[] = [];
  let batchBytes = 0;
  const prepareOne = (raw: RawLine) => {
    if ('tooLong' in raw) {
      return [
        refused(
          raw.number,
          413,
          'PAYLOAD_TOO_LARGE',
          `A line may have at most ${BULK_MAX_LINE_BYTES} bytes.`,
        ),
      ];
    }
    const p = prepareLine(ctx, raw.number, raw.text, allowed);
    return p ? [p] : [];
  };
  // In slices, giving way between them: the batch in flight has its statements sent meanwhile.
  const giveWay = () => new Promise((resolve) => setImmediate(resolve));
  const prepare = async (lines: RawLine[]) => {
    const prepared: Prepared[] = [];
    for (let at = 0; at < lines.length; at += PREPARE_SLICE) {
      if (at > 0) await giveWay();
      for (const raw of lines.slice(at, at + PREPARE_SLICE)) prepared.push(...prepareOne(raw));
    }
    // The embedded database runs in this thread, so nothing overlaps: each record is checked in the
    // transaction, and only if its line is not the one that wrote the version held.
    if (ctx.db.kind === 'pglite') return prepared;
    // Here the records are checked now, beside the batch in flight, except those whose line is, as far as
    // can be seen outside the transaction, the one that wrote the version held (the transaction checks
    // again, under the lock, and checks the record after all if it is not).
    const written = await linesHeld(ctx.db, prepared.filter(isUnchecked));
    for (let at = 0; at < prepared.length; at += PREPARE_SLICE) {
      await giveWay();
      for (let i = at; i < Math.min(prepared.length, at + PREPARE_SLICE); i += 1) {
        const p = prepared[i]!;
        if (isUnchecked(p) && written.get(recordId(p.type, p.key)) !== p.lineDigest) {
          prepared[i] = checkRecord(p);
        }
      }
    }
    return prepared;
  };
  // Lines are applied up to BULK_BATCH_LINES to a transaction: one commit (one flush to disk) serves them
  // all. A line's result is told only once its batch has committed, so a load that stops has reported
  // exactly what it applied. While one batch's transaction runs, the next is read and checked (the
  // server's work overlaps the database's); its transaction starts once the one before has committed.
  let inFlight: Promise<BulkLineResult[]> | undefined;
  const settle = async function* () {
    if (!inFlight) return;
    const applied = inFlight;
    inFlight = undefined;
    for (const result of await applied) {
      summary.lines += 1;
      summary[result.status] += 1;
      yield result;
    }
  };
  const flush = async function* () {
    if (batch.length === 0) return;
    const lines = batch;
    batch = [];
    batchBytes = 0;
    const prepared = await prepare(lines);
    yield* settle();
    inFlight = ctx.db.transaction((tx) => applyBatch(ctx, tx, prepared, actor));
    // Awaited by the next settle(); until then a failure is not an unhandled rejection.
    inFlight.catch(() => undefined);
  };
  for await (const raw of ndjsonLines(input)) {
    if (raw.number < from) continue;
    batch.push(raw);
    batchBytes += 'text' in raw ? raw.text.length : 0;
    if (batch.length >= BULK_BATCH_LINES || batchBytes >= BULK_BATCH_BYTES) yield* flush();
  }
  yield* flush();
  yield* settle();
  yield { summary };
}

/** Whether a request body is the raw stream the NDJSON parser hands on (and not, say, parsed JSON). */
export function isStream(body: unknown): body is Readable {
  return typeof body === 'object' && body !== null && typeof (body as Readable).pipe === 'function';
}
