import type { Readable } from 'node:stream';
import type { z } from 'zod';
import type { IntegrationScope } from '@portal/contracts/call';
import {
  BULK_MAX_LINE_BYTES,
  bulkLine,
  type BulkLineResult,
  type BulkSummary,
} from '@portal/contracts/integration/bulk';
import type { SourceVersion } from '@portal/contracts/integration/common';
import { HttpError } from '../../platform/errors';
import { unstorableFields } from '../../platform/input-guard';
import type { Queryable } from '../../platform/db';
import type { IntegrationContext } from './context';
import { parseInput } from '../../platform/validate';
import type { IntegrationActor } from './versioned';

/** One line of the input: its text, or the fact that it was longer than a line may be. */
type RawLine = { number: number; text: string } | { number: number; tooLong: true };

const NEWLINE = 0x0a;

/** Lines applied in one transaction (each under its own savepoint). */
const BULK_BATCH_LINES = 200;

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

/**
 * Applies one line, exactly as the single-record call would, and answers its result; a line that cannot
 * be applied is `refused` with its reason and changes nothing. Throws only when the load cannot go on
 * (the database is unavailable): what was applied stays applied.
 */
async function applyLine(
  ctx: IntegrationContext,
  tx: Queryable,
  number: number,
  text: string,
  actor: IntegrationActor,
  scopes: ReadonlySet<string> | 'all',
): Promise<BulkLineResult | undefined> {
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
    if (line.op === 'remove') {
      if (line.version === undefined) {
        throw new HttpError(400, 'BAD_REQUEST', 'A removal needs the version.', { version: 'Required' });
      }
      return {
        line: number,
        // In the batch's transaction, as an upsert is: a record written earlier in the batch is locked by it.
        ...(await ctx.services.integration.remove(line.type, key, line.version, actor, tx)),
      };
    }
    let record: { version: SourceVersion };
    try {
      record = parseInput(resource.record, line.record, 'body');
    } catch (error) {
      if (error instanceof HttpError) {
        throw new HttpError(400, 'BAD_REQUEST', 'The record is not valid.', prefixed(error, 'record'));
      }
      throw error;
    }
    return { line: number, ...(await ctx.services.integration.upsert(line.type, key, record, actor, tx)) };
  } catch (error) {
    if (!(error instanceof HttpError) || error.statusCode >= 500) throw error;
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
}

/**
 * A bulk load: each line of `input` applied on its own, in order, its result yielded once applied (in
 * batches), then a summary. `scopes` limits what the client may write ('all' for the operator's import).
 * Nothing is all-or-nothing: a refused line is reported and the load goes on; if the database becomes
 * unavailable the load stops, everything before stays, and the same file sent again resumes (its
 * applied lines answer `unchanged`).
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
  // Lines are applied BULK_BATCH_LINES to a transaction, each under a savepoint of its own: a refused line
  // is rolled back alone, and one commit (one flush to disk) serves them all. A line's result is told only
  // once its batch has committed, so a load that stops has reported exactly what it applied.
  const apply = (lines: RawLine[]) =>
    ctx.db.transaction(async (tx) => {
      const results: BulkLineResult[] = [];
      for (const raw of lines) {
        if ('tooLong' in raw) {
          results.push(
            refused(
              raw.number,
              413,
              'PAYLOAD_TOO_LARGE',
              `A line may have at most ${BULK_MAX_LINE_BYTES} bytes.`,
            ),
          );
          continue;
        }
        await tx.query('SAVEPOINT bulk_line');
        const result = await applyLine(ctx, tx, raw.number, raw.text, actor, allowed);
        await tx.query(
          result?.status === 'refused' ? 'ROLLBACK TO SAVEPOINT bulk_line' : 'RELEASE SAVEPOINT bulk_line',
        );
        if (result) results.push(result);
      }
      return results;
    });
  const flush = async function* () {
    if (batch.length === 0) return;
    const lines = batch;
    batch = [];
    for (const result of await apply(lines)) {
      summary.lines += 1;
      summary[result.status] += 1;
      yield result;
    }
  };
  for await (const raw of ndjsonLines(input)) {
    if (raw.number < from) continue;
    batch.push(raw);
    if (batch.length >= BULK_BATCH_LINES) yield* flush();
  }
  yield* flush();
  yield { summary };
}

/** Whether a request body is the raw stream the NDJSON parser hands on (and not, say, parsed JSON). */
export function isStream(body: unknown): body is Readable {
  return typeof body === 'object' && body !== null && typeof (body as Readable).pipe === 'function';
}
