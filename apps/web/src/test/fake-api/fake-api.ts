import type { CallDefinition } from '@portal/contracts/call';
import { http, HttpResponse, type HttpHandler } from 'msw';
import { setupServer } from 'msw/node';
import type { z } from 'zod/mini';
import { baseUrlFor } from '../../lib/page-init';
import { testPageInit } from '../content-fixtures';

type AnySchema = z.ZodMiniType;
type AnyCall = CallDefinition<AnySchema, AnySchema, AnySchema, Record<number, AnySchema>, boolean>;
type ResponsesOf<C> = C extends CallDefinition<AnySchema, AnySchema, AnySchema, infer R> ? R : never;
type ParamsOf<C> =
  C extends CallDefinition<infer P, AnySchema, AnySchema, Record<number, AnySchema>>
    ? P extends AnySchema
      ? z.output<P>
      : Record<string, never>
    : never;
type BodyOf<C> =
  C extends CallDefinition<AnySchema, AnySchema, infer B, Record<number, AnySchema>>
    ? B extends AnySchema
      ? z.output<B>
      : undefined
    : never;

/** One answer a fake may give to a call: a status its contract declares, with a body of that status's schema. */
type FakeReply<C> =
  | {
      [S in keyof ResponsesOf<C>]: {
        status: AsNumber<S>;
        body: z.input<ResponsesOf<C>[S]>;
        headers?: ReplyHeaders;
      };
    }[keyof ResponsesOf<C>]
  | { status: 401 | 403 | 404 | 500 | 502 | 503; body?: undefined; headers?: ReplyHeaders }
  /**
   * A body the contract does not describe: a PDF, or a status a real provider may answer beyond the
   * contract (Okta's LOCKED_OUT); headers such as Content-Disposition or Content-Type as given.
   */
  | { status: 200; raw: BodyInit; headers: ReplyHeaders }
  /** The service cannot be reached: the fetch fails as on a network error. */
  | { status: 'network error' };

/** A status key as a number (a key spread from an `as const` object, e.g. customerCallErrors, is "400"). */
type AsNumber<S> = S extends `${infer N extends number}` ? N : S;

/** Response headers of a fake answer (Retry-After, Content-Disposition). */
type ReplyHeaders = Record<string, string>;

interface FakeRequest<C> {
  params: ParamsOf<C>;
  query: URLSearchParams;
  body: BodyOf<C>;
  /** The customer id claim of the bearer token, undefined when the call carried none. */
  tokenCustomerId: string | undefined;
  request: Request;
}

/** Answers a call; undefined lets the request through to the handler added before this one. */
export type FakeResolver<C> = (
  request: FakeRequest<C>,
) => FakeReply<C> | undefined | Promise<FakeReply<C> | undefined>;

/** A resolver answering these replies in turn, the last one repeating. */
export function inTurn<C>(...replies: [FakeReply<C>, ...Array<FakeReply<C>>]): FakeResolver<C> {
  const left = [...replies];
  return () => (left.length > 1 ? left.shift() : left[0]);
}

/** One request a fake answered, as the test reads it back: the call (contract id or named handler). */
export interface RecordedRequest<Params = Record<string, string>, Body = unknown> {
  /** The contract call's id, or the name of a handler for a call without a contract ('oidc.token'). */
  id: string;
  service: string;
  params: Params;
  query: URLSearchParams;
  body: Body;
  headers: Headers;
  credentials: RequestCredentials;
}

const journal: RecordedRequest[] = [];

/** Records a request a handler answered (fakeCall does it; a handler without a contract calls it). */
export function recordRequest(entry: RecordedRequest): void {
  journal.push(entry);
}

/** Every request the fake API answered in this test, in order. */
export function answeredRequests(): readonly RecordedRequest[] {
  return journal;
}

/** The requests the fake API answered for one contract call, in order, typed by it. */
export function callsTo<C extends AnyCall>(call: C): Array<RecordedRequest<ParamsOf<C>, BodyOf<C>>> {
  return journal.filter((r) => r.id === call.id) as Array<RecordedRequest<ParamsOf<C>, BodyOf<C>>>;
}

/** Forgets the answered requests (the test setup does it after each test). */
export function clearAnsweredRequests(): void {
  journal.length = 0;
}

const statusTexts: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  204: 'No Content',
  400: 'Bad Request',
  401: 'Unauthorized',
  404: 'Not Found',
  409: 'Conflict',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

const envelope = (status: number) => ({
  code:
    status === 401
      ? 'UNAUTHORIZED'
      : status === 403
        ? 'FORBIDDEN'
        : status === 404
          ? 'NOT_FOUND'
          : 'INTERNAL',
  message: statusTexts[status] ?? 'Error',
  correlationId: 'test-correlation',
});

function tokenCustomerId(request: Request): string | undefined {
  const token = /^Bearer (.+)$/.exec(request.headers.get('Authorization') ?? '')?.[1];
  const payload = token?.split('.')[1];
  if (!payload) return undefined;
  try {
    const claims = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as {
      customerId?: unknown;
    };
    return typeof claims.customerId === 'string' ? claims.customerId : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The absolute URL pattern MSW matches for a call, at the test page-init's base URL of its service (the
 * staff console's at the page's own origin, as the API client sends them).
 */
function urlOf(call: AnyCall): string {
  const base = call.service === 'staff' ? window.location.origin : baseUrlFor(call.service, testPageInit);
  return `${base}${call.path}`;
}

/**
 * An MSW handler for one contract call, typed by it: the resolver gets the path params, query, body and
 * the token's customer, and answers one of the statuses the contract declares with a body of that
 * status's schema. As the real services do, a call whose contract needs a signed-in customer answers 401
 * without a bearer token and 404 when the path's customer is not the token's, and a staff call that writes
 * answers 403 without an X-CSRF-Token (the staff guard), before the resolver runs.
 */
export function fakeCall<C extends AnyCall>(call: C, resolver: NoInfer<FakeResolver<C>>): HttpHandler {
  const method = call.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
  return http[method](urlOf(call), async ({ request, params }) => {
    const customer = tokenCustomerId(request);
    const text = request.method === 'GET' ? '' : await request.clone().text();
    const seen = {
      params: params as ParamsOf<C>,
      query: new URL(request.url).searchParams,
      body: (text ? JSON.parse(text) : undefined) as BodyOf<C>,
    };
    const answered = (answer: FakeReply<AnyCall>) => {
      recordRequest({
        id: call.id,
        service: call.service,
        params: params as Record<string, string>,
        query: seen.query,
        body: seen.body,
        headers: request.headers,
        credentials: request.credentials,
      });
      return reply(answer);
    };
    if (call.auth) {
      if (!customer) return answered({ status: 401 });
      if ('customerId' in params && params.customerId !== customer) return answered({ status: 404 });
    }
    if (call.staffRoles && call.method !== 'GET' && !request.headers.get('X-CSRF-Token')) {
      return answered({ status: 403 });
    }
    const answer = await resolver({ ...seen, tokenCustomerId: customer, request });
    return answer === undefined ? undefined : answered(answer as FakeReply<AnyCall>);
  });
}

function reply(answer: FakeReply<AnyCall>): Response {
  if (answer.status === 'network error') return HttpResponse.error();
  const statusText = statusTexts[answer.status] ?? '';
  const headers = 'headers' in answer ? answer.headers : undefined;
  if ('raw' in answer) return new HttpResponse(answer.raw, { status: answer.status, statusText, headers });
  if (answer.status === 204) return new HttpResponse(null, { status: 204, statusText, headers });
  const body = answer.body === undefined && answer.status >= 400 ? envelope(answer.status) : answer.body;
  return HttpResponse.json(body as never, { status: answer.status, statusText, headers });
}

/**
 * The one fake API of the web tests: MSW intercepting fetch, started by the test setup. A test adds the
 * calls it needs with `fakeApi.use(fakeCall(call, resolver), ...)`; handlers are reset after each test.
 * A request no handler answers goes on to the network, where the test origin does not resolve, so it
 * fails like a network error. `callsTo(call)` reads back what the fake answered.
 */
export const fakeApi = setupServer();
