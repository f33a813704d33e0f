import { z } from 'zod/mini';

/** The services the SPA calls; each has its own configured base URL. */
export type ServiceName =
  | 'content'
  | 'identity'
  | 'registration'
  | 'account'
  | 'policy'
  | 'document'
  | 'eventlog'
  | 'portal'
  | 'integration'
  | 'staff';

/**
 * The scopes of the integration API's machine clients (the insurer's systems of record): one per area
 * written, and one to read the events feed. A client is given the scopes it needs in configuration.
 */
export const integrationScopes = [
  'customers.write',
  'policies.write',
  'documents.write',
  'billing.write',
  'notifications.write',
  'messages.write',
  'events.read',
] as const;
export type IntegrationScope = (typeof integrationScopes)[number];

/**
 * The roles of the insurer's staff (issue 41), from the workforce identity provider's groups: an agent
 * finds and helps customers, a senior agent also removes second factors and changes an email, an
 * auditor reads a customer's audit trail and nothing else.
 */
export const staffRoles = ['agent', 'senior-agent', 'auditor', 'editor', 'publisher', 'operator'] as const;
export type StaffRole = (typeof staffRoles)[number];

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/**
 * One call of the spec's call tables, defined once: the server validates with it, the SPA parses
 * responses with it, and the OpenAPI document is generated from every call registered here.
 *
 * `path` is relative to the service's base URL and uses Fastify/OpenAPI-style `:param` segments,
 * e.g. `/api/v1/customers/:customerId/status-token`.
 */
export interface CallDefinition<
  P extends z.ZodMiniType = z.ZodMiniType,
  Q extends z.ZodMiniType = z.ZodMiniType,
  B extends z.ZodMiniType = z.ZodMiniType,
  R extends Record<number, z.ZodMiniType> = Record<number, z.ZodMiniType>,
  A extends boolean = boolean,
> {
  id: string;
  summary: string;
  service: ServiceName;
  method: HttpMethod;
  path: string;
  /**
   * Bearer access token required. The server's `route()` then requires a valid token and, when the path
   * has a `:customerId`, that it is the token's customer (404 otherwise); no route opts in by itself.
   */
  auth: A;
  /**
   * An integration call (the insurer's systems, not a customer): an access token issued to a machine
   * client by client credentials, for the integration audience, carrying this scope, is required (401
   * without a valid one, 403 without the scope; with a list, any one of them). `auth` is then false: a
   * customer's token is refused.
   */
  clientScope?: IntegrationScope | readonly IntegrationScope[];
  /**
   * A staff call (the contact centre's console): a staff session cookie is required (401 without a
   * valid one), with one of these roles (403 otherwise), and a write must carry the session's CSRF token
   * (403 without it). `auth` is then false and no `clientScope`: a customer's or a client's token is
   * refused.
   */
  staffRoles?: readonly StaffRole[];
  /**
   * A staff call that is not the staff member's activity (a check of the session the console makes by
   * itself): it does not restart the session's idle time.
   */
  staffPassive?: true;
  /**
   * A write a read-only shared view (issue 41 point 6) may make: its own page views and its end. Every
   * other write with a shared view's token is refused (403 READ_ONLY_VIEW).
   */
  sharedView?: true;
  params?: P;
  query?: Q;
  body?: B;
  /** Response body schemas by status code. Non-JSON bodies (PDF) use z.instanceof(Uint8Array) or omit. */
  responses: R;
  /** Content type of the success response when it is not JSON (e.g. application/pdf). */
  produces?: string;
  /**
   * Content type of the request body when it is not JSON (a PDF upload, an NDJSON bulk load): the
   * handler reads the raw stream itself, and `body` is not used.
   */
  consumes?: string;
}

const registry: CallDefinition[] = [];

/** Defines a call and records it for the OpenAPI document. */
export function defineCall<
  P extends z.ZodMiniType,
  Q extends z.ZodMiniType,
  B extends z.ZodMiniType,
  R extends Record<number, z.ZodMiniType>,
  const A extends boolean,
>(call: CallDefinition<P, Q, B, R, A>): CallDefinition<P, Q, B, R, A> {
  if (registry.some((c) => c.id === call.id)) throw new Error(`Duplicate call id ${call.id}`);
  registry.push(call as unknown as CallDefinition);
  return call;
}

/** Every call defined so far (import the contract modules first; index.ts does). */
export function allCalls(): readonly CallDefinition[] {
  return registry;
}

/**
 * Names a schema for the OpenAPI document, where it becomes a component referenced by `$ref` (what
 * `.meta({ id })` does in classic zod): returns a copy registered under `id` in zod's global registry,
 * leaving `schema` itself unnamed. Ids are unique across the contracts.
 */
export function named<T extends z.ZodMiniType>(schema: T, id: string): T {
  const copy = schema.clone();
  z.globalRegistry.add(copy, { id });
  return copy;
}

/** Our services' error envelope (identity endpoints use Okta's, see identity.ts). */
export const errorEnvelope = z.object({
  code: z.string(),
  message: z.string(),
  fieldErrors: z.optional(z.record(z.string(), z.string())),
  correlationId: z.string(),
});
export type ErrorEnvelope = z.infer<typeof errorEnvelope>;

export { buildPath } from './call-path';
