import { z } from 'zod/mini';
import { errorEnvelope, named } from './call';

/**
 * Primitives shared by the customer-data calls (profile, portal, policy, document, contact,
 * notifications). Request schemas are strict (an unknown field is a 400, so typos surface); response
 * schemas strip unknown fields, so a server can add a field without breaking a deployed SPA.
 */

/** Customer ids as the insurer issues them: C and seven digits (C1000001). */
export const customerIdPattern = /^C\d{7}$/;

export const customerIdValue = z.string().check(z.regex(customerIdPattern, 'Enter a valid customer id'));

/** `:customerId` path parameter. A well-formed id that is not the token's is answered 404, never 403. */
export const customerParams = z.strictObject({ customerId: customerIdValue });

/**
 * An opaque identifier in a path (document ids, notification ids): letters, digits, `_` and `-`, at most
 * 64 characters, so it can never smuggle a path separator or a dot-segment.
 */
export const opaqueId = z
  .string()
  .check(z.regex(/^[A-Za-z0-9_-]{1,64}$/, 'Use letters, digits, - and _ only (at most 64 characters)'));

/**
 * A params schema with `customerId` plus the named id segments, each checked by `schema` (opaqueId by
 * default): `idParams({ docId: opaqueId })`.
 */
export function idParams<S extends Record<string, z.ZodMiniType>>(ids: S) {
  return z.strictObject({ customerId: customerIdValue, ...ids });
}

/** A single `{ [name]: opaqueId }` params schema, for paths with one id and no customer id. */
export function idParam<K extends string>(name: K, schema: z.ZodMiniType = opaqueId) {
  return z.strictObject({ [name]: schema } as Record<K, typeof schema>);
}

/** YYYY-MM-DD, a real calendar date. */
export const isoDate = z.iso.date();
/** ISO 8601 instant with a zone (Z or an offset). */
export const isoDateTime = z.iso.datetime({ offset: true });

/**
 * A money amount the SPA may hide: `visible` false means the premium or value is not to be shown (the
 * SPA shows the configured text instead). `value` is pounds sterling, at most two decimal places.
 */
export const money = named(
  z.object({
    visible: z.boolean(),
    value: z.number().check(
      z.minimum(0),
      z.refine((v) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6, 'At most two decimal places'),
    ),
  }),
  'Money',
);
export type Money = z.infer<typeof money>;

/**
 * A link to another system shown to the customer: http(s) only,
 * so no javascript: or data: URL reaches an href.
 */
export const externalUrl = z.url({ protocol: /^https?$/ });

/** Largest page a client may ask for. */
export const MAX_PAGE_SIZE = 50;
export const DEFAULT_PAGE_SIZE = 10;

/** `page` from 1, as a query string value ("2") or a number. */
export const pageNumber = z.coerce
  .number({ error: 'Enter a page number' })
  .check(z.int('Enter a whole page number'), z.minimum(1, 'Pages start at 1'), z.maximum(100_000));

/** `?page&pageSize`: page from 1 (default 1), pageSize 1 to 50 (default 10). Other query keys are ignored. */
export const paginationQuery = z.object({
  page: z._default(pageNumber, 1),
  pageSize: z._default(
    z.coerce
      .number({ error: 'Enter a page size' })
      .check(
        z.int('Enter a whole page size'),
        z.minimum(1, 'Page size is at least 1'),
        z.maximum(MAX_PAGE_SIZE, `Page size is at most ${MAX_PAGE_SIZE}`),
      ),
    DEFAULT_PAGE_SIZE,
  ),
});
export type PaginationQuery = z.infer<typeof paginationQuery>;

/**
 * One page of a list, in the spec's billing-list shape: currentPage, lastPage, pageSize, totalRecords, data.
 */
export function pageOf<T extends z.ZodMiniType>(item: T) {
  return z.object({
    currentPage: z.number().check(z.int(), z.minimum(1)),
    /** 1 when the list is empty. */
    lastPage: z.number().check(z.int(), z.minimum(1)),
    pageSize: z.number().check(z.int(), z.minimum(1), z.maximum(MAX_PAGE_SIZE)),
    totalRecords: z.number().check(z.int(), z.minimum(0)),
    data: z.array(item),
  });
}

/** The error statuses every customer-scoped call can answer, all in our envelope. */
export const customerCallErrors = {
  /** A malformed path, query or body. */
  400: errorEnvelope,
  /** No, expired or invalid bearer token. */
  401: errorEnvelope,
  /** Not found, or the path's customer id is not the token's (never 403, so ids cannot be probed). */
  404: errorEnvelope,
} as const;

/** For calls that take no body: nothing, or `{}`. */
export const emptyBody = z.optional(z.strictObject({}));

/**
 * A binary response body (PDF). The server sends a Uint8Array/Buffer; the SPA receives a Blob. The
 * OpenAPI document describes it as `type: string, format: binary` under the call's `produces` type.
 */
export const binaryBody = z.custom<Uint8Array | Blob>(
  (v) => v instanceof Uint8Array || (typeof Blob !== 'undefined' && v instanceof Blob),
  'Expected binary content',
);
