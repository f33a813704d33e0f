import { z } from 'zod/mini';
import { errorEnvelope, named } from '../call';
import { isoDateTime } from '../common';

/**
 * What every integration call shares (the insurer's systems of record loading the portal's records:
 * docs/integration.md). Server-only, like openapi.ts: the SPA never imports the integration contracts.
 *
 * Records are keyed by the source system's own ids, and every write carries the source's version of the
 * record: an integer (a revision number) or an RFC 3339 instant (a last-updated time). An older version
 * never overwrites a newer one.
 */

/**
 * The source's version of a record: a whole number, or an instant with a zone. Versions of one record
 * are compared as numbers (an instant by its milliseconds since 1970), so keep to one kind per source.
 */
export const sourceVersion = z.union([
  z.number().check(z.int('A version is a whole number'), z.minimum(0), z.maximum(Number.MAX_SAFE_INTEGER)),
  isoDateTime,
]);
export type SourceVersion = z.infer<typeof sourceVersion>;

/**
 * `?version=` of a removal, as the query string carries it: digits are the integer version, anything
 * else must be an instant.
 */
export const versionQuery = z.strictObject({
  version: z.pipe(
    z.string().check(z.minLength(1, 'Give the version of the removal')),
    z.transform((v: string, ctx) => {
      if (/^\d{1,16}$/.test(v)) return Number(v);
      if (z.safeParse(isoDateTime, v).success) return v;
      ctx.issues.push({
        code: 'custom',
        input: v,
        message: 'A version is a whole number or an RFC 3339 instant',
      });
      return z.NEVER;
    }),
  ),
});

/** The order of two versions: the number a version is compared by. */
export function versionOrder(version: SourceVersion): number {
  return typeof version === 'number' ? version : Date.parse(version);
}

/** What one write did: created, updated, unchanged (the same version and content again), or removed. */
export const integrationOutcome = z.enum(['created', 'updated', 'unchanged', 'removed']);
export type IntegrationOutcome = z.infer<typeof integrationOutcome>;

/** The answer to an upsert or a removal. */
export const integrationResult = named(
  z.object({
    /** The kind of record: customer, policy, quote, agency, ... */
    type: z.string(),
    /** The source system's key of the record. */
    key: z.string(),
    status: integrationOutcome,
    /** The version now held. */
    version: sourceVersion,
  }),
  'IntegrationResult',
);
export type IntegrationResult = z.infer<typeof integrationResult>;

/**
 * 409: a newer version of the record is held (or the same version with other content): nothing was
 * written. `heldVersion` says which.
 */
export const staleVersionError = named(
  z.object({
    code: z.enum(['STALE_VERSION', 'VERSION_CONFLICT']),
    message: z.string(),
    heldVersion: sourceVersion,
    correlationId: z.string(),
  }),
  'StaleVersionError',
);

/** The statuses every integration write can answer besides its success. */
export const integrationWriteErrors = {
  /** The body, path or query is not valid: `fieldErrors` names each field. */
  400: errorEnvelope,
  /** No, expired or invalid client token (or a customer's token). */
  401: errorEnvelope,
  /** The client's token lacks the call's scope. */
  403: errorEnvelope,
  /** A newer version is held. */
  409: staleVersionError,
  /** The record refers to one not held (a policy's customer, a document's file): load that first. */
  422: errorEnvelope,
} as const;
