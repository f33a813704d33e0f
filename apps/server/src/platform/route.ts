import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { z } from 'zod/mini';
import { errorEnvelope, type CallDefinition } from '@portal/contracts/call';
import { requireCustomer, type AuthenticatedCustomer } from './auth-guard';
import { requireClient, type IntegrationClient } from './client-guard';
import { requireStaff, type StaffMember } from './staff-guard';
import type { PlatformContext } from './module';
import { serializerSchema } from './response-schema';
import { checkOutput, parseInput } from './validate';

type AnySchema = z.ZodMiniType;
// The widest call: handlers are typed from the concrete call they are given.
type AnyCall = CallDefinition<AnySchema, AnySchema, AnySchema, Record<number, AnySchema>, boolean>;

type OutputOf<S> = S extends AnySchema ? z.output<S> : undefined;
type SuccessStatus = 200 | 201 | 202 | 204;

/** The JSON a handler returns: the input of the call's success response schema. */
type RouteResult<C> =
  C extends CallDefinition<AnySchema, AnySchema, AnySchema, infer R>
    ? { [K in keyof R]: K extends SuccessStatus ? z.input<R[K]> : never }[keyof R]
    : never;

/** What a handler receives: validated, typed input, and the verified customer on signed-in calls. */
interface RouteInput<C extends AnyCall> {
  params: C extends CallDefinition<infer P, AnySchema, AnySchema, Record<number, AnySchema>>
    ? OutputOf<P>
    : never;
  query: C extends CallDefinition<AnySchema, infer Q, AnySchema, Record<number, AnySchema>>
    ? OutputOf<Q>
    : never;
  body: C extends CallDefinition<AnySchema, AnySchema, infer B, Record<number, AnySchema>>
    ? OutputOf<B>
    : never;
  /** The token's customer. Present whenever the contract says `auth: true`. */
  customer: C['auth'] extends true ? AuthenticatedCustomer : AuthenticatedCustomer | undefined;
  /** The machine client of an integration call (its contract names a `clientScope`). */
  client: IntegrationClient | undefined;
  /** The staff member of a console call (its contract names `staffRoles`). */
  staff: StaffMember | undefined;
  request: FastifyRequest;
  reply: FastifyReply;
}

/**
 * Returned by a handler that has answered itself (a PDF, a redirect, a prepared body): the route sends
 * nothing more and checks nothing.
 */
export class Sent {
  private readonly sent = true;
}
export const SENT = new Sent();

export type RouteHandler<C extends AnyCall> = (
  input: RouteInput<C>,
) => Promise<RouteResult<C> | Sent> | RouteResult<C> | Sent;

export interface RouteExtras {
  /** Fastify route options to merge (config for rate limits, a bodyLimit, extra hooks). */
  options?: Partial<Pick<RouteOptions, 'config' | 'bodyLimit' | 'onRequest' | 'preValidation'>>;
}

/** One route of the app as registered: its method, full URL and the contract call it serves, if any. */
export interface RegisteredRoute {
  method: string;
  url: string;
  call: AnyCall | undefined;
}

/** Every route of each app (every scope of one app shares its PlatformContext). */
const registered = new WeakMap<PlatformContext, RegisteredRoute[]>();

/** Records every route registered from now on (HEAD twins of GET routes aside). Called once by buildApp. */
export function recordRoutes(app: FastifyInstance): void {
  const routes: RegisteredRoute[] = [];
  registered.set(app.ctx, routes);
  app.addHook('onRoute', (options) => {
    const config = options.config as { call?: AnyCall } | undefined;
    for (const method of [options.method].flat()) {
      if (method === 'HEAD') continue; // Fastify's twins of GET routes
      routes.push({ method, url: options.url, call: config?.call });
    }
  });
}

/** Every route of the app, as recorded by `recordRoutes`. */
export function registeredRoutes(app: FastifyInstance): readonly RegisteredRoute[] {
  return registered.get(app.ctx) ?? [];
}

/** The contract calls this app serves (through `route()`), in registration order. */
export function servedCalls(app: FastifyInstance): AnyCall[] {
  return registeredRoutes(app).flatMap((r) => (r.call ? [r.call] : []));
}

/**
 * Serves one contract call, in one line:
 *
 *   route(app, getPolicyCall, async ({ params, customer }) => policies.get(customer.customerId, params.policyId));
 *
 * Method and path come from the contract. When the contract says `auth: true`, a valid access token is
 * required (401 without one) and a `:customerId` in the path must be the token's customer (otherwise 404,
 * so nothing about other customers leaks); no handler opts in or out of that. Params, query and body are
 * parsed with the contract's schemas (a 400 in the envelope, naming each bad field, before the handler
 * runs). The returned value is written by a serializer compiled from the contract's success schema
 * (platform/response-schema.ts; where a schema is beyond it, parsed with zod first), so fields the
 * contract does not name never leave the server. In tests the returned value is also parsed with zod, and
 * every answer, errors included, is checked against the contract's schema for its status (see
 * `contractCheck`): a mismatch is our bug (500, logged).
 */
export function route<C extends AnyCall>(
  app: FastifyInstance,
  call: C,
  handler: RouteHandler<C>,
  extras: RouteExtras = {},
): void {
  const ctx: PlatformContext = app.ctx;
  const successStatus = successStatusOf(call);
  const successSchema = call.responses[successStatus];
  if ([call.auth, call.clientScope, call.staffRoles].filter(Boolean).length > 1)
    throw new Error(`${call.id}: a call is for customers, for clients or for staff: one of them`);
  // The answer written by a serializer compiled from the contract (only its fields), where the contract's
  // schema allows; otherwise parsed with zod before it is written. Tests check every answer with zod too.
  const serializer =
    successSchema && !call.produces && successStatus !== 204 ? serializerSchema(successSchema) : undefined;
  const checkEveryAnswer = ctx.config.env === 'test';
  const guard = call.auth
    ? requireCustomer(ctx, { sharedViewWrite: call.sharedView === true })
    : call.clientScope
      ? requireClient(ctx, call.clientScope)
      : call.staffRoles
        ? requireStaff(ctx, call.staffRoles, { passive: call.staffPassive === true })
        : undefined;

  app.route({
    method: call.method,
    url: call.path,
    ...extras.options,
    config: { ...(extras.options?.config as object | undefined), call },
    ...(serializer ? { schema: { response: { [successStatus]: serializer } } } : {}),
    preHandler: guard,
    onSend: ctx.config.env === 'test' ? contractCheck(call) : undefined,
    handler: async (request, reply) => {
      const input = {
        params: call.params ? parseInput(call.params, request.params, 'params') : undefined,
        query: call.query ? parseInput(call.query, request.query, 'query') : undefined,
        body:
          call.body && !call.consumes ? parseInput(call.body, request.body ?? undefined, 'body') : undefined,
        customer: request.customer,
        client: request.client,
        staff: request.staff,
        request,
        reply,
      } as RouteInput<C>;
      const result = await handler(input);
      if (result === SENT) return reply;
      reply.status(successStatus);
      if (successStatus === 204) return reply.send();
      if (call.produces || !successSchema) return reply.send(result);
      if (!serializer) return checkOutput(successSchema, result as never);
      if (checkEveryAnswer) checkOutput(successSchema, result as never);
      return result;
    },
  });
}

/**
 * In tests, every JSON answer of a contract route, errors included, must match the contract's schema for
 * its status (an undeclared 4xx must be the error envelope); a success or redirect status the contract does
 * not declare, or a body that does not match, becomes a 500 naming
 * the call, so the test that provoked it fails.
 */
function contractCheck(call: AnyCall) {
  return async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const status = reply.statusCode;
    if (status === 304 || status === 204 || status >= 500) return payload;
    // Cross-cutting refusals (413, 415, 429...) need not be declared per call, but are still our envelope.
    // (In the envelope of the call's service: identity calls declare Okta's for 400, the rest ours.)
    const schema =
      call.responses[status] ?? (status >= 400 ? (call.responses[400] ?? errorEnvelope) : undefined);
    const type = String(reply.getHeader('content-type') ?? '');
    const problem = !schema
      ? `status ${status} is not in the contract`
      : type.startsWith('application/json') && typeof payload === 'string'
        ? mismatch(schema, payload)
        : undefined;
    if (!problem) return payload;
    request.log.error({ callId: call.id, status }, 'answer does not match its contract');
    reply.status(500).type('application/json; charset=utf-8');
    return JSON.stringify({
      code: 'CONTRACT_MISMATCH',
      message: `${call.id}: ${problem}`,
      correlationId: request.correlationId,
    });
  };
}

function mismatch(schema: AnySchema, payload: string): string | undefined {
  try {
    checkOutput(schema, JSON.parse(payload) as never);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : 'invalid body';
  }
}

/** The call's success status: its lowest 2xx response (200 when it declares none). */
function successStatusOf(call: AnyCall): number {
  const statuses = Object.keys(call.responses)
    .map(Number)
    .filter((s) => s >= 200 && s < 300)
    .sort((a, b) => a - b);
  return statuses[0] ?? 200;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The contract call a route serves (set by `route()`). */
    call?: AnyCall;
  }
}
