import { z } from 'zod/mini';
import {
  allCalls,
  errorEnvelope,
  integrationScopes,
  named,
  type CallDefinition,
  type HttpMethod,
  type ServiceName,
} from './call';
// Importing the index defines every call of every contract file, so the document lists them all; the
// integration contracts are server-only and not in the index.
import './index';
import './integration/index';
import './staff';
import './staff-content';

/**
 * The OpenAPI 3.1 document of every call defined with `defineCall`, built from zod's own JSON Schema
 * conversion (OpenAPI 3.1 schemas are JSON Schema 2020-12). Server-only: the SPA never imports this file,
 * which is why `index.ts` does not export it.
 *
 * Schemas named with `named()` (a `{ id }` in zod's global registry) become components and are
 * referenced with `$ref`; everything else is inlined where it is used. Parameters and request bodies
 * describe what a client may send (zod's input side: defaults make a field optional, a transform is
 * described by what it accepts); responses describe what the service answers (the output side).
 */

type JsonSchema = z.core.JSONSchema.BaseSchema;

export interface OpenApiParameter {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  description?: string;
  schema: JsonSchema;
}

export interface OpenApiMediaType {
  schema: JsonSchema;
}

export interface OpenApiResponse {
  description: string;
  headers?: Record<string, { description?: string; schema: JsonSchema }>;
  content?: Record<string, OpenApiMediaType>;
}

export interface OpenApiOperation {
  operationId: string;
  summary: string;
  tags: string[];
  security?: Array<Record<string, string[]>>;
  servers?: Array<{ url: string; description?: string }>;
  parameters?: OpenApiParameter[];
  requestBody?: { required: boolean; content: Record<string, OpenApiMediaType> };
  responses: Record<string, OpenApiResponse>;
}

export type OpenApiPathItem = Partial<Record<Lowercase<HttpMethod>, OpenApiOperation>>;

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description?: string };
  servers: Array<{ url: string; description?: string }>;
  tags: Array<{ name: string; description?: string }>;
  paths: Record<string, OpenApiPathItem>;
  components: {
    schemas: Record<string, JsonSchema>;
    securitySchemes: Record<string, Record<string, unknown>>;
  };
}

export interface OpenApiOptions {
  /** Base URL of each service as clients call it (the server passes config.baseUrls). */
  servers?: Partial<Record<ServiceName, string>>;
  /** The API version shown in `info.version`. */
  version?: string;
  /** The calls to document (the server passes those it serves); every contract call by default. */
  calls?: readonly CallDefinition[];
}

export const BEARER_SCHEME = 'bearerAuth';
export const CLIENT_SCHEME = 'integrationClient';
export const STAFF_SCHEME = 'staffSession';

// The envelope is shared by almost every response; naming it makes it one component, not hundreds of copies.
const namedErrorEnvelope = named(errorEnvelope, 'ErrorEnvelope');

const serviceDescriptions: Record<ServiceName, string> = {
  content: 'Site settings, page content and navigation from the content store',
  identity: 'Sign-in (Okta classic Authentication API shapes) and OpenID Connect',
  registration: 'Registration, its completion and password reset requests',
  account: 'Profile, preferences, status token, contact messages and notifications',
  policy: 'Policies, quotes and agency details',
  document: 'Billing, policy and quote documents, as lists and PDFs',
  eventlog: 'Client audit events',
  portal: 'One-time codes and password change from the profile pages',
  integration:
    "The insurer's systems of record: customers, policies, quotes, agencies, bills, documents and notifications in; customers' changes out (events). OAuth 2.0 client credentials.",
  staff:
    "The contact centre's console: staff signed in through the insurer's workforce identity provider, by role; writes carry the session's CSRF token.",
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

/** Schemas that mean "no body": the response is described without content. */
function isEmpty(schema: z.core.$ZodType): boolean {
  const type = schema._zod.def.type;
  return type === 'void' || type === 'undefined' || type === 'never';
}

/** Streams of JSON lines: each line is described by the call's schema, not as binary content. */
const JSON_LINES = 'application/x-ndjson';

/** A binary (PDF) success response is described by its content type, not by its schema. */
function isBinaryResponse(call: CallDefinition, status: number): boolean {
  return call.produces !== undefined && call.produces !== JSON_LINES && status >= 200 && status < 300;
}

const COMPONENTS = '#/components/schemas/';

/**
 * The JSON Schemas of many zod schemas converted together, in one direction: `input` for what a client
 * sends, `output` for what a service answers. Named schemas are left as `$ref`s into `defs`.
 */
interface Conversion {
  schemas: Map<z.core.$ZodType, JsonSchema>;
  defs: Record<string, JsonSchema>;
}

function convert(parts: readonly z.core.$ZodType[], io: 'input' | 'output'): Conversion {
  const unique = [...new Set(parts)];
  // One object holding every part, converted at once, so each named schema is emitted exactly once.
  const root = z.object(Object.fromEntries(unique.map((schema, i) => [`s${i}`, schema])));
  const json = z.toJSONSchema(root, {
    target: 'draft-2020-12',
    io,
    // Inlined where used, as before; only named schemas (and any recursion) become components.
    reused: 'inline',
    cycles: 'ref',
    unrepresentable: 'throw',
    override: ({ zodSchema, jsonSchema }) => {
      // Response objects strip unknown fields rather than refuse them: a service may add a field
      // without breaking a deployed client, so the document does not promise there are none.
      const def = zodSchema._zod.def;
      if (io === 'output' && def.type === 'object' && !(def as { catchall?: unknown }).catchall) {
        delete jsonSchema.additionalProperties;
      }
    },
  });
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  return {
    schemas: new Map(unique.map((schema, i) => [schema, properties[`s${i}`]!])),
    defs: (json.$defs ?? {}) as Record<string, JsonSchema>,
  };
}

/** The id of a `#/$defs/{id}` reference (a JSON pointer segment). */
function defId(ref: string): string {
  return ref.slice('#/$defs/'.length).replace(/~1/g, '/').replace(/~0/g, '~');
}

/** Rewrites every `#/$defs/{id}` reference to the component it became. */
function relink(value: unknown, componentOf: (id: string) => string): unknown {
  if (Array.isArray(value)) return value.map((item: unknown) => relink(item, componentOf));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (key === '$ref' && typeof item === 'string' && item.startsWith('#/$defs/')) {
      out[key] = `${COMPONENTS}${componentOf(defId(item))}`;
    } else {
      out[key] = relink(item, componentOf);
    }
  }
  return out;
}

function refsIn(value: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const item of value) refsIn(item, into);
  else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (key === '$ref' && typeof item === 'string' && item.startsWith('#/$defs/')) {
        into.add(defId(item));
      } else refsIn(item, into);
    }
  }
  return into;
}

/**
 * Converts the request parts (input side) and the response bodies (output side) of the calls, and
 * merges their named schemas into one set of components. A named schema that reads differently on the
 * two sides (a default, a transform) gets a second component, `{id}Input`, for the request side.
 */
function convertCalls(calls: readonly CallDefinition[]) {
  const requestParts: z.core.$ZodType[] = [];
  const responseBodies: z.core.$ZodType[] = [];
  for (const call of calls) {
    if (call.params) requestParts.push(call.params);
    if (call.query) requestParts.push(call.query);
    if (call.body && call.method !== 'GET') requestParts.push(call.body);
    for (const [status, schema] of Object.entries(call.responses)) {
      if (isEmpty(schema) || isBinaryResponse(call, Number(status))) continue;
      responseBodies.push(schema === errorEnvelope ? namedErrorEnvelope : schema);
    }
  }
  const input = convert(requestParts, 'input');
  const output = convert(responseBodies, 'output');

  // Input definitions that need their own component: those that differ from the output one, and
  // (until nothing changes) those that refer to one that does.
  const separate = new Set<string>();
  for (const [id, def] of Object.entries(input.defs)) {
    if (id in output.defs && JSON.stringify(def) !== JSON.stringify(output.defs[id])) separate.add(id);
  }
  for (let changed = true; changed;) {
    changed = false;
    for (const [id, def] of Object.entries(input.defs)) {
      if (separate.has(id) || !(id in output.defs)) continue;
      if ([...refsIn(def)].some((ref) => separate.has(ref))) {
        separate.add(id);
        changed = true;
      }
    }
  }
  const inputComponent = (id: string) => (separate.has(id) ? `${id}Input` : id);
  const outputComponent = (id: string) => id;

  const components: Record<string, JsonSchema> = {};
  for (const [id, def] of Object.entries(output.defs)) {
    components[id] = relink(def, outputComponent) as JsonSchema;
  }
  for (const [id, def] of Object.entries(input.defs)) {
    const name = inputComponent(id);
    if (!(name in components)) components[name] = relink(def, inputComponent) as JsonSchema;
  }
  const converted = (side: Conversion, schema: z.core.$ZodType) => {
    const json = side.schemas.get(schema);
    if (!json) throw new Error('a schema of the call was not converted');
    return json;
  };
  return {
    components,
    request: (schema: z.core.$ZodType) => relink(converted(input, schema), inputComponent) as JsonSchema,
    response: (schema: z.core.$ZodType) =>
      relink(
        converted(output, schema === errorEnvelope ? namedErrorEnvelope : schema),
        outputComponent,
      ) as JsonSchema,
  };
}

type Converted = ReturnType<typeof convertCalls>;

/** The `{ type: object, properties }` a params or query schema converts to (through a `$ref`). */
function objectJson(json: JsonSchema, components: Record<string, JsonSchema>): JsonSchema | undefined {
  const target =
    typeof json.$ref === 'string' && json.$ref.startsWith(COMPONENTS)
      ? components[json.$ref.slice(COMPONENTS.length)]
      : json;
  return target?.type === 'object' && target.properties ? target : undefined;
}

function parametersFor(
  where: 'path' | 'query',
  schema: z.core.$ZodType,
  converted: Converted,
): OpenApiParameter[] {
  const json = objectJson(converted.request(schema), converted.components);
  if (!json) throw new Error(`the ${where === 'path' ? 'params' : 'query'} schema is not an object`);
  const required = new Set(json.required ?? []);
  return Object.entries(json.properties ?? {}).map(([name, property]) => {
    const propertySchema = property as JsonSchema;
    return {
      name,
      in: where,
      required: where === 'path' || required.has(name),
      ...(typeof propertySchema.description === 'string' ? { description: propertySchema.description } : {}),
      schema: propertySchema,
    };
  });
}

function responseFor(
  call: CallDefinition,
  status: number,
  schema: z.core.$ZodType,
  converted: Converted,
): OpenApiResponse {
  const description = statusText[status] ?? `HTTP ${status}`;
  if (isEmpty(schema)) return { description };
  if (isBinaryResponse(call, status)) {
    return {
      description: `${description}: the ${call.produces} content`,
      headers: {
        'Content-Disposition': {
          description: 'attachment; filename="..." (clients fall back to nfum-file.pdf when absent)',
          schema: { type: 'string' },
        },
      },
      content: { [call.produces!]: { schema: { type: 'string', format: 'binary' } } },
    };
  }
  const type =
    call.produces === JSON_LINES && status >= 200 && status < 300 ? JSON_LINES : 'application/json';
  return { description, content: { [type]: { schema: converted.response(schema) } } };
}

function operationFor(
  call: CallDefinition,
  servers: OpenApiOptions['servers'],
  converted: Converted,
): OpenApiOperation {
  const parameters: OpenApiParameter[] = [];
  if (call.params) parameters.push(...parametersFor('path', call.params, converted));
  // A path segment no params schema describes is still a required string, so the document stays valid.
  for (const name of pathParamNames(call.path)) {
    if (!parameters.some((p) => p.in === 'path' && p.name === name)) {
      parameters.push({ name, in: 'path', required: true, schema: { type: 'string' } });
    }
  }
  if (call.query) parameters.push(...parametersFor('query', call.query, converted));
  const serverUrl = servers?.[call.service];
  return {
    operationId: call.id,
    summary: call.summary,
    tags: [call.service],
    ...(call.auth ? { security: [{ [BEARER_SCHEME]: [] }] } : {}),
    ...(call.clientScope
      ? { security: [call.clientScope].flat().map((scope) => ({ [CLIENT_SCHEME]: [scope] })) }
      : {}),
    ...(call.staffRoles ? { security: [{ [STAFF_SCHEME]: [] }] } : {}),
    ...(serverUrl ? { servers: [{ url: serverUrl, description: `${call.service} service` }] } : {}),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(call.consumes
      ? {
          // A body the handler reads as a stream: a file, or JSON lines each described by `body`.
          requestBody: {
            required: true,
            content: {
              [call.consumes]: {
                schema: call.body ? converted.request(call.body) : { type: 'string', format: 'binary' },
              },
            },
          },
        }
      : call.body && call.method !== 'GET'
        ? {
            requestBody: {
              required: !z.safeParse(call.body, undefined).success,
              content: { 'application/json': { schema: converted.request(call.body) } },
            },
          }
        : {}),
    responses: Object.fromEntries(
      Object.entries(call.responses).map(([status, schema]) => [
        status,
        responseFor(call, Number(status), schema, converted),
      ]),
    ),
  };
}

function pathsFor(
  calls: readonly CallDefinition[],
  servers: OpenApiOptions['servers'],
  converted: Converted,
): Record<string, OpenApiPathItem> {
  const paths: Record<string, OpenApiPathItem> = {};
  for (const call of calls) {
    let operation: OpenApiOperation;
    try {
      operation = operationFor(call, servers, converted);
    } catch (error) {
      throw new Error(`OpenAPI generation failed for call ${call.id}: ${(error as Error).message}`, {
        cause: error,
      });
    }
    const item = (paths[toOpenApiPath(call.path)] ??= {});
    item[call.method.toLowerCase() as Lowercase<HttpMethod>] = operation;
  }
  return paths;
}

/** Converts every call's schemas; when that fails, names the first call whose schemas cannot be described. */
function convertOrExplain(calls: readonly CallDefinition[]): Converted {
  try {
    return convertCalls(calls);
  } catch (error) {
    for (const call of calls) {
      try {
        convertCalls([call]);
      } catch (inner) {
        throw new Error(`OpenAPI generation failed for call ${call.id}: ${(inner as Error).message}`, {
          cause: inner,
        });
      }
    }
    throw error;
  }
}

/**
 * Builds the OpenAPI 3.1 document from every defined call: paths in `{param}` form, parameters, bodies,
 * responses by status, the bearer scheme on `auth` calls, one tag per service, and each operation's
 * server set to its service's base URL (services may live on different hosts).
 */
export function buildOpenApiDocument(options: OpenApiOptions = {}): OpenApiDocument {
  const calls = options.calls ?? allCalls();
  const converted = convertOrExplain(calls);
  const paths = pathsFor(calls, options.servers, converted);

  const services = [...new Set(calls.map((c) => c.service))].sort();
  const serverUrls = [...new Set(Object.values(options.servers ?? {}).filter((u): u is string => !!u))];
  return {
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
    paths,
    components: {
      schemas: Object.fromEntries(
        Object.entries(converted.components).sort(([a], [b]) => a.localeCompare(b)),
      ),
      securitySchemes: {
        [BEARER_SCHEME]: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description:
            "The customer's OpenID Connect access token; its customer id claim must match the path's.",
        },
        [STAFF_SCHEME]: {
          type: 'apiKey',
          in: 'cookie',
          name: 'portal_staff',
          description:
            'A staff session (HttpOnly, SameSite=Strict, path /staff) from the workforce sign-in at /staff/sign-in; writes also need the X-CSRF-Token header the session call gives.',
        },
        [CLIENT_SCHEME]: {
          type: 'oauth2',
          description:
            'A machine client of the insurer (docs/integration.md): OAuth 2.0 client credentials at the identity service, for the integration audience.',
          flows: {
            clientCredentials: {
              tokenUrl: `${options.servers?.identity ?? ''}/oauth2/default/v1/token`,
              scopes: Object.fromEntries(integrationScopes.map((s) => [s, `${s.replace('.', ': ')}`])),
            },
          },
        },
      },
    },
  };
}
