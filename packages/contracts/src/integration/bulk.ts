import { z } from 'zod/mini';
import { defineCall, errorEnvelope, named } from '../call';
import { integrationOutcome, sourceVersion } from './common';

/**
 * Bulk loads (docs/integration.md): the first load and the nightly loads as NDJSON, one record a line,
 * each line applied on its own (never all-or-nothing) exactly as the single-record calls would apply it,
 * and answered with one result line per input line. Loading the same file again is harmless (its lines
 * answer `unchanged`), so a load that stopped is resumed by sending the lines from where it stopped.
 */

/** The most bytes one line may have (a policy with many valuables fits many times over). */
export const BULK_MAX_LINE_BYTES = 1024 * 1024;

/**
 * One input line: an upsert of `record` (its `version` inside) or, with `op: "remove"`, a removal at
 * `version`. `type` and `key` are those of the single-record calls (customer C1234567, policy
 * 102X4567891, policyDocumentPack 102X4567891/pack-1, ...).
 */
export const bulkLine = named(
  z.strictObject({
    op: z.optional(z.enum(['upsert', 'remove'])),
    type: z.string().check(z.minLength(1), z.maxLength(64)),
    key: z.string().check(z.minLength(1), z.maxLength(200)),
    record: z.optional(z.unknown()),
    version: z.optional(sourceVersion),
  }),
  'BulkLine',
);
export type BulkLine = z.infer<typeof bulkLine>;

/** The result of one input line (numbered from 1), or `refused` with the reason and nothing written. */
export const bulkLineResult = named(
  z.object({
    line: z.number().check(z.int(), z.minimum(1)),
    type: z.optional(z.string()),
    key: z.optional(z.string()),
    status: z.union([integrationOutcome, z.literal('refused')]),
    version: z.optional(sourceVersion),
    error: z.optional(
      z.object({
        status: z.number().check(z.int()),
        code: z.string(),
        message: z.string(),
        fieldErrors: z.optional(z.record(z.string(), z.string())),
        heldVersion: z.optional(sourceVersion),
      }),
    ),
  }),
  'BulkLineResult',
);
export type BulkLineResult = z.infer<typeof bulkLineResult>;

/** The last line of the answer: how many lines had each outcome. */
export const bulkSummary = named(
  z.object({
    summary: z.object({
      lines: z.number(),
      created: z.number(),
      updated: z.number(),
      unchanged: z.number(),
      removed: z.number(),
      refused: z.number(),
    }),
  }),
  'BulkSummary',
);
export type BulkSummary = z.infer<typeof bulkSummary>;

/**
 * Instead of the summary, when the load could not go on (the database became unavailable): the lines
 * answered before it were applied; send the rest again later.
 */
export const bulkStopped = named(
  z.object({ stopped: z.object({ status: z.number(), message: z.string() }) }),
  'BulkStopped',
);

export const bulkLoadCall = defineCall({
  id: 'integration.bulk',
  summary:
    'Loads NDJSON, one upsert or removal a line, each applied on its own. Answers NDJSON: one BulkLineResult per line as it is applied, then a BulkSummary line. A line needs the scope of its record type.',
  service: 'integration',
  method: 'POST',
  path: '/integration/v1/bulk',
  auth: false,
  clientScope: [
    'customers.write',
    'policies.write',
    'documents.write',
    'billing.write',
    'notifications.write',
    'messages.write',
  ],
  consumes: 'application/x-ndjson',
  produces: 'application/x-ndjson',
  body: bulkLine,
  responses: {
    200: z.union([bulkLineResult, bulkSummary, bulkStopped]),
    400: errorEnvelope,
    401: errorEnvelope,
    403: errorEnvelope,
    415: errorEnvelope,
  },
});
