import type { z } from 'zod/mini';
import { buildPath } from '@portal/contracts/call-path';
import type { CallDefinition } from '@portal/contracts/call';
import { currentPath } from './app-navigation';
import { transportKeys, writeStored } from './browser-storage';
import { baseUrlFor, pageInitReady } from './page-init';
import { getSessionId } from './session-id';

/** The spec's generic fallback text for a failed call (wording as specified). */
export const GENERIC_FETCH_ERROR = 'An fetching error has occurred';

/** The full-page error route; a failed content call made there is not remembered for after sign-in. */
export const ERROR_PAGE_PATH = '/error';

type AnyCall = CallDefinition<z.ZodMiniType, z.ZodMiniType, z.ZodMiniType, Record<number, z.ZodMiniType>>;
type SuccessStatus = 200 | 201 | 202 | 203 | 204;

type ParamsOf<C> =
  C extends CallDefinition<infer P, z.ZodMiniType, z.ZodMiniType, Record<number, z.ZodMiniType>>
    ? z.input<P>
    : never;
type QueryOf<C> =
  C extends CallDefinition<z.ZodMiniType, infer Q, z.ZodMiniType, Record<number, z.ZodMiniType>>
    ? z.input<Q>
    : never;
type BodyOf<C> =
  C extends CallDefinition<z.ZodMiniType, z.ZodMiniType, infer B, Record<number, z.ZodMiniType>>
    ? z.input<B>
    : never;

/** The parsed success body of a call: the output of its 2xx response schema(s). */
export type CallResult<C> =
  C extends CallDefinition<z.ZodMiniType, z.ZodMiniType, z.ZodMiniType, infer R>
    ? { [K in keyof R]: K extends SuccessStatus ? z.output<R[K]> : never }[keyof R]
    : never;

/** A non-ok response: the message is the response's status text. */
export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    readonly callId: string,
    readonly status: number,
    readonly statusText: string,
    /** The error body, parsed with the call's schema for that status when it has one, else as sent. */
    readonly body: unknown,
    readonly correlationId: string,
  ) {
    super(statusText || GENERIC_FETCH_ERROR);
  }
}

/** The request never got an answer (offline, DNS, refused, CORS): the message is the browser's. */
export class NetworkError extends Error {
  override name = 'NetworkError';
  constructor(
    readonly callId: string,
    message: string,
  ) {
    super(message || GENERIC_FETCH_ERROR);
  }
}

/** The answer did not match the contract (or came with a status the contract does not define). */
export class ResponseShapeError extends Error {
  override name = 'ResponseShapeError';
  constructor(
    readonly callId: string,
    readonly status: number,
  ) {
    super(GENERIC_FETCH_ERROR);
  }
}

export type ApiCallError = ApiError | NetworkError | ResponseShapeError;

export function isApiCallError(error: unknown): error is ApiCallError {
  return error instanceof ApiError || error instanceof NetworkError || error instanceof ResponseShapeError;
}

/** True for a request cancelled through its AbortSignal. */
export function isAbortError(error: unknown): boolean {
  return (
    (error instanceof DOMException && (error.name === 'AbortError' || error.name === 'TimeoutError')) ||
    (error instanceof Error && error.name === 'AbortError')
  );
}

export type AccessTokenProvider = () => string | undefined | Promise<string | undefined>;

let accessTokenProvider: AccessTokenProvider | undefined;

/** The auth feature registers where the current access token comes from; undefined when signed out. */
export function setAccessTokenProvider(provider: AccessTokenProvider | undefined): void {
  accessTokenProvider = provider;
}

/**
 * Why the portal refused a call's token: `ended` when its sign-in was ended on the server (its
 * `WWW-Authenticate` says "The sign-in session has ended"), `expired` for anything else (an access token
 * past its time, after a computer slept through its renewal).
 */
export type SessionEndCause = 'ended' | 'expired';

let sessionEndedHandler: ((cause: SessionEndCause) => void) | undefined;

/**
 * The session layer registers what to do when the portal refuses the bearer token of a call that sent
 * one (401): the sign-in has ended on the server (signed out from another device, a password change or
 * reset, the account closed), or the token ran out, so the customer is signed out here too and sees the
 * sign-in page saying which.
 */
export function setSessionEndedHandler(handler: ((cause: SessionEndCause) => void) | undefined): void {
  sessionEndedHandler = handler;
}

/** The cause a 401's WWW-Authenticate gives (decision 005: the guard names an ended sign-in). */
function endCauseOf(headers: Headers): SessionEndCause {
  return /error_description="The sign-in session has ended"/.test(headers.get('WWW-Authenticate') ?? '')
    ? 'ended'
    : 'expired';
}

export interface CallOptions<C> {
  params?: ParamsOf<C>;
  query?: QueryOf<C>;
  body?: BodyOf<C>;
  signal?: AbortSignal;
  /** Send cookies to another origin (the identity session check). Same-origin cookies always go. */
  credentials?: RequestCredentials;
  /** Sees the answer's headers before its body is read (a download's Content-Disposition). */
  onHeaders?: (headers: Headers) => void;
  /** Headers of the call's own beyond the transport's (the staff console's X-CSRF-Token on a write). */
  headers?: Readonly<Record<string, string>>;
}

function buildUrl(call: AnyCall, params: unknown, query: unknown, base: string): string {
  const path = buildPath(call.path, (params ?? {}) as Record<string, string | number>);
  const search = new URLSearchParams();
  if (query && typeof query === 'object') {
    for (const [name, value] of Object.entries(query as Record<string, unknown>)) {
      if (value === undefined || value === null) continue;
      for (const item of Array.isArray(value) ? value : [value]) search.append(name, String(item));
    }
  }
  const qs = search.toString();
  return `${base}${path}${qs ? `?${qs}` : ''}`;
}

/**
 * Where a call's service is: its base URL from page init; the staff console's calls on the page's own
 * origin (its session cookie is path /staff on this origin, and the console has no page init).
 */
async function baseOf(call: AnyCall): Promise<string> {
  if (call.service === 'staff') return window.location.origin;
  // A call made while the page is still starting waits for the settings that name its service.
  return baseUrlFor(call.service, await pageInitReady());
}

async function readBody(response: Response, produces: string | undefined): Promise<unknown> {
  if (produces && produces !== 'application/json') return new Uint8Array(await response.arrayBuffer());
  const text = await response.text();
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * Makes one call of the contracts against the service's base URL from page init: fresh X-CorrelationId,
 * the tab's X-SessionId, the bearer token for calls that need one, JSON in and out, and the answer
 * parsed with the call's response schema for the status received.
 *
 * Failures follow the spec and are the caller's to show: a non-ok answer rejects with an ApiError
 * carrying the status text, a network failure with a NetworkError carrying the browser's message, an
 * answer off the contract with a ResponseShapeError (the generic text). A failed content call also
 * remembers the current path for after sign-in. The client never navigates (a refused bearer token is
 * handed to the session layer's handler, which signs out): a screen shows the spec's
 * message for its call, and a failed route load reaches the error page through the router's loaders and
 * error boundaries. A cancelled request only logs a warning and rejects with the AbortError.
 */
export async function callApi<C extends AnyCall>(
  call: C,
  options: CallOptions<C> = {},
): Promise<CallResult<C>> {
  const correlationId = crypto.randomUUID();
  const fail = (error: ApiCallError): never => {
    if (call.service === 'content') {
      const path = currentPath();
      // Returning to the error page after sign-in would help nobody, nor to an address that has no page
      // (a mistyped link answers 404): the customer would sign in to "Page not found".
      if (path.split('?')[0] !== ERROR_PAGE_PATH && !(error instanceof ApiError && error.status === 404))
        writeStored('session', transportKeys.redirectAfterLogin, path);
    }
    throw error;
  };
  const aborted = (error: unknown): never => {
    console.warn(`Request ${call.id} was cancelled`);
    throw error;
  };

  let response: Response;
  let sentToken = false;
  try {
    const url = buildUrl(call, options.params, options.query, await baseOf(call));
    const headers = new Headers({
      ...options.headers,
      Accept: call.produces ?? 'application/json',
      'X-CorrelationId': correlationId,
      'X-SessionId': getSessionId(),
    });
    const init: RequestInit = {
      method: call.method,
      headers,
      credentials: options.credentials ?? 'same-origin',
      signal: options.signal ?? null,
    };
    if (options.body !== undefined) {
      headers.set('Content-Type', 'application/json');
      init.body = JSON.stringify(options.body);
    }
    if (call.auth) {
      const token = await accessTokenProvider?.();
      if (token) headers.set('Authorization', `Bearer ${token}`);
      sentToken = Boolean(token);
    }
    response = await fetch(url, init);
  } catch (error) {
    if (isAbortError(error) || options.signal?.aborted) return aborted(error);
    return fail(new NetworkError(call.id, error instanceof Error ? error.message : ''));
  }

  options.onHeaders?.(response.headers);
  let body: unknown;
  try {
    body = await readBody(response, call.produces);
  } catch (error) {
    if (isAbortError(error) || options.signal?.aborted) return aborted(error);
    // The connection dropped while the body was arriving.
    return fail(new NetworkError(call.id, error instanceof Error ? error.message : ''));
  }

  const schema = call.responses[response.status];
  if (response.status === 401 && sentToken) sessionEndedHandler?.(endCauseOf(response.headers));
  if (!response.ok) {
    const parsed = schema?.safeParse(body);
    const errorBody = parsed?.success ? parsed.data : body;
    return fail(
      new ApiError(
        call.id,
        response.status,
        response.statusText,
        errorBody,
        response.headers.get('X-CorrelationId') ?? correlationId,
      ),
    );
  }
  if (!schema) return fail(new ResponseShapeError(call.id, response.status));
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    // Only the paths of the mismatch: values may be personal data.
    console.error(
      `Response of ${call.id} did not match its contract at: ${parsed.error.issues
        .slice(0, 5)
        .map((i) => i.path.join('.') || '(root)')
        .join(', ')}`,
    );
    return fail(new ResponseShapeError(call.id, response.status));
  }
  return parsed.data as CallResult<C>;
}
