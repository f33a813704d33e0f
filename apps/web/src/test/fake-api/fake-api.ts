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
  | { [S in keyof ResponsesOf<C>]: { status: S; body: z.input<ResponsesOf<C>[S]> } }[keyof ResponsesOf<C>]
  | { status: 401 | 404 | 500 | 502 | 503; body?: undefined }
  /** A non-JSON answer (a PDF); headers such as Content-Disposition as given. */
  | { status: 200; raw: BodyInit; headers: Record<string, string> };

interface FakeRequest<C> {
  params: ParamsOf<C>;
  query: URLSearchParams;
  body: BodyOf<C>;
  /** The customer id claim of the bearer token, undefined when the call carried none. */
  tokenCustomerId: string | undefined;
  request: Request;
}

export type FakeResolver<C> = (request: FakeRequest<C>) => FakeReply<C> | Promise<FakeReply<C>>;

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
  code: status === 401 ? 'UNAUTHORIZED' : status === 404 ? 'NOT_FOUND' : 'INTERNAL',
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

/** The absolute URL pattern MSW matches for a call, at the test page-init's base URL of its service. */
function urlOf(call: AnyCall): string {
  return `${baseUrlFor(call.service, testPageInit)}${call.path}`;
}

/**
 * An MSW handler for one contract call, typed by it: the resolver gets the path params, query, body and
 * the token's customer, and answers one of the statuses the contract declares with a body of that
 * status's schema. As the real services do, a call whose contract needs a signed-in customer answers 401
 * without a bearer token and 404 when the path's customer is not the token's, before the resolver runs.
 */
export function fakeCall<C extends AnyCall>(call: C, resolver: FakeResolver<C>): HttpHandler {
  const method = call.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
  return http[method](urlOf(call), async ({ request, params }) => {
    const customer = tokenCustomerId(request);
    if (call.auth) {
      if (!customer) return reply({ status: 401 });
      if ('customerId' in params && params.customerId !== customer) return reply({ status: 404 });
    }
    const text = request.method === 'GET' ? '' : await request.clone().text();
    const answer = await resolver({
      params: params as ParamsOf<C>,
      query: new URL(request.url).searchParams,
      body: (text ? JSON.parse(text) : undefined) as BodyOf<C>,
      tokenCustomerId: customer,
      request,
    });
    return reply(answer as FakeReply<AnyCall>);
  });
}

function reply(answer: FakeReply<AnyCall>): Response {
  const statusText = statusTexts[answer.status] ?? '';
  if ('raw' in answer)
    return new HttpResponse(answer.raw, { status: answer.status, statusText, headers: answer.headers });
  if (answer.status === 204) return new HttpResponse(null, { status: 204, statusText });
  const body = answer.body === undefined && answer.status >= 400 ? envelope(answer.status) : answer.body;
  return HttpResponse.json(body as never, { status: answer.status, statusText });
}

/**
 * The one fake API of the web tests: MSW intercepting fetch, started by the test setup. A test adds the
 * calls it needs with `fakeApi.use(fakeCall(call, resolver), ...)`; handlers are reset after each test.
 * A request no handler answers is let through to whatever else stands in for fetch (the older stand-ins
 * stub the global fetch themselves) and otherwise fails like a network error.
 */
export const fakeApi = setupServer();
