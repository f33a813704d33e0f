import {
  OpenAPIRegistry,
  OpenApiGeneratorV31,
  type ResponseConfig,
  type RouteConfig,
} from '@asteasolutions/zod-to-openapi';
import type { z } from 'zod';
import { allCalls, errorEnvelope, type CallDefinition, type ServiceName } from './call';
// Importing the index defines every call of every contract file, so the document lists them all.
import './index';

/**
 * The OpenAPI 3.1 document of every call defined with `defineCall`. Server-only: the SPA never imports
 * this file (it pulls in the generator), which is why `index.ts` does not export it.
 */

export type OpenApiDocument = ReturnType<OpenApiGeneratorV31['generateDocument']>;

export interface OpenApiOptions {
  /** Base URL of each service as clients call it (the server passes config.baseUrls). */
  servers?: Partial<Record<ServiceName, string>>;
  /** The API version shown in `info.version`. */
  version?: string;
}

export const BEARER_SCHEME = 'bearerAuth';

// The envelope is shared by almost every response; naming it makes it one component, not hundreds of copies.
const namedErrorEnvelope = errorEnvelope.meta({ id: 'ErrorEnvelope' });

const serviceDescriptions: Record<ServiceName, string> = {
  content: 'Site settings, page content and navigation from the content store',
  identity: 'Sign-in (Okta classic Authentication API shapes) and OpenID Connect',
  registration: 'Registration, its completion and password reset requests',
  account: 'Profile, preferences, status token, contact messages and notifications',
  policy: 'Policies, quotes and agency details',
  document: 'Billing, policy and quote documents, as lists and PDFs',
  eventlog: 'Client audit events',
  portal: 'One-time codes and password change from the profile pages',
};

const statusText: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  204: 'No content',
  302: 'Redirect',
  400: 'The request is not valid (see fieldErrors)',
  401: 'No, expired or invalid bearer token',
  403: 'Forbidden',
  404: "Not found, or the path's customer id is not the token's",
  409: 'Conflicts with the current state',
  410: 'Gone (expired)',
  413: 'The request body is too large',
  415: 'Unsupported content type',
  422: 'Not processable',
  423: 'Locked',
  429: 'Too many requests (see Retry-After)',
  500: 'Unexpected server error',
  503: 'Service unavailable',
};

/** `/api/v1/profile/:customerId` -> `/api/v1/profile/{customerId}`. */
export function toOpenApiPath(path: string): string {
  return path.replace(/:([A-Za-z]\w*)/g, '{$1}');
}

function pathParamNames(path: string): string[] {
  return [...path.matchAll(/:([A-Za-z]\w*)/g)].map((m) => m[1]!);
}

/** Keys of an object schema (through optional/pipe wrappers); [] when it is not one. */
function objectKeys(schema: z.ZodType | undefined): string[] {
  const def = schema?._zod.def as
    { type: string; shape?: Record<string, unknown>; in?: z.ZodType } | undefined;
  if (!def) return [];
  if (def.type === 'object' && def.shape) return Object.keys(def.shape);
  if (def.type === 'pipe' && def.in) return objectKeys(def.in);
  return [];
}

/** Schemas that mean "no body": the response is described without content. */
function isEmpty(schema: z.ZodType): boolean {
  const type = schema._zod.def.type;
  return type === 'void' || type === 'undefined' || type === 'never';
}

function responseFor(call: CallDefinition, status: number, schema: z.ZodType): ResponseConfig {
  const description = statusText[status] ?? `HTTP ${status}`;
  if (isEmpty(schema)) return { description };
  if (call.produces && status >= 200 && status < 300) {
    return {
      description: `${description}: the ${call.produces} content`,
      headers: {
        'Content-Disposition': {
          description: 'attachment; filename="..." (clients fall back to nfum-file.pdf when absent)',
          schema: { type: 'string' },
        },
      },
      content: { [call.produces]: { schema: { type: 'string', format: 'binary' } } },
    };
  }
  return {
    description,
    content: { 'application/json': { schema: schema === errorEnvelope ? namedErrorEnvelope : schema } },
  };
}

function routeFor(call: CallDefinition, servers: OpenApiOptions['servers']): RouteConfig {
  const covered = new Set(objectKeys(call.params));
  // A path segment no params schema describes is still a required string, so the document stays valid.
  const uncovered = pathParamNames(call.path).filter((name) => !covered.has(name));
  const request: NonNullable<RouteConfig['request']> = {};
  if (call.params) request.params = call.params as NonNullable<RouteConfig['request']>['params'];
  if (call.query) request.query = call.query as NonNullable<RouteConfig['request']>['query'];
  if (call.body && call.method !== 'GET') {
    request.body = {
      required: !call.body.safeParse(undefined).success,
      content: { 'application/json': { schema: call.body } },
    };
  }
  const serverUrl = servers?.[call.service];
  return {
    method: call.method.toLowerCase() as RouteConfig['method'],
    path: toOpenApiPath(call.path),
    operationId: call.id,
    summary: call.summary,
    tags: [call.service],
    ...(call.auth ? { security: [{ [BEARER_SCHEME]: [] }] } : {}),
    ...(serverUrl ? { servers: [{ url: serverUrl, description: `${call.service} service` }] } : {}),
    ...(uncovered.length > 0
      ? {
          parameters: uncovered.map((name) => ({
            name,
            in: 'path' as const,
            required: true,
            schema: { type: 'string' as const },
          })),
        }
      : {}),
    request,
    responses: Object.fromEntries(
      Object.entries(call.responses).map(([status, schema]) => [
        status,
        responseFor(call, Number(status), schema),
      ]),
    ),
  };
}

/**
 * Builds the OpenAPI 3.1 document from every defined call: paths in `{param}` form, parameters, bodies,
 * responses by status, the bearer scheme on `auth` calls, one tag per service, and each operation's
 * server set to its service's base URL (services may live on different hosts).
 */
export function buildOpenApiDocument(options: OpenApiOptions = {}): OpenApiDocument {
  const calls = allCalls();
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', BEARER_SCHEME, {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: "The customer's OpenID Connect access token; its customer id claim must match the path's.",
  });
  for (const call of calls) registry.registerPath(routeFor(call, options.servers));

  const services = [...new Set(calls.map((c) => c.service))].sort();
  const serverUrls = [...new Set(Object.values(options.servers ?? {}).filter((u): u is string => !!u))];
  const config = {
    openapi: '3.1.0',
    info: {
      title: 'Customer portal API',
      version: options.version ?? '1.0.0',
      description:
        'Every call the customer portal SPA makes, generated from the zod contracts in packages/contracts. ' +
        "Errors use the envelope { code, message, fieldErrors?, correlationId } (identity uses Okta's). " +
        "A customer id in a path that is not the bearer token's is answered 404.",
    },
    servers: serverUrls.map((url) => ({ url })),
    tags: services.map((name) => ({ name, description: serviceDescriptions[name] })),
  };

  try {
    return new OpenApiGeneratorV31(registry.definitions).generateDocument(config);
  } catch (error) {
    // Name the call whose schemas the generator cannot describe, so the contract author can fix it.
    for (const call of calls) {
      const single = new OpenAPIRegistry();
      single.registerPath(routeFor(call, options.servers));
      try {
        new OpenApiGeneratorV31(single.definitions).generateDocument(config);
      } catch (inner) {
        throw new Error(`OpenAPI generation failed for call ${call.id}: ${(inner as Error).message}`, {
          cause: inner,
        });
      }
    }
    throw error;
  }
}
