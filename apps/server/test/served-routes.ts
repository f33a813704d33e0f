import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions } from 'fastify';

/** A method as request injection takes it. */
type Method = NonNullable<InjectOptions['method']>;

/**
 * A built web app of the test's own (one index.html), so the SPA routes answer as in production whether
 * or not the real one has been built when the tests run (CI runs them before the build).
 */
export async function stubWebApp(): Promise<{ dir: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'portal-web-stub-'));
  await writeFile(
    path.join(dir, 'index.html'),
    '<!doctype html><html lang="en"><head><title>Portal</title></head><body><div id="root"></div></body></html>',
  );
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

export interface ServedRoute {
  method: Method;
  url: string;
}

/** The routes of `printRoutes({ commonPrefix: false })`: a tree whose lines add to their parent's path. */
export function servedRoutes(app: FastifyInstance): ServedRoute[] {
  const routes: ServedRoute[] = [];
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^((?:[│ ] {3})*)[├└]── (\S+)(?: \(([^)]+)\))?/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    stack.length = depth;
    stack.push(match[2]!);
    const url = stack.join('').replace(/\/{2,}/g, '/');
    for (const method of match[3]?.split(', ') ?? []) {
      // HEAD is GET without the body; QUERY and TRACE are the OpenID provider's catch-all.
      if (method !== 'HEAD' && method !== 'QUERY' && method !== 'TRACE')
        routes.push({ method: method as Method, url });
    }
  }
  return routes;
}

interface Schema {
  $ref?: string;
  properties?: Record<string, unknown>;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
}

/**
 * The JSON body field names of each documented call, keyed `METHOD /path/{param}`, from the OpenAPI
 * document the app builds from the contracts. A body may be a reference or a union of shapes (an Okta
 * call takes several): every field counts.
 */
export async function contractBodyFields(app: FastifyInstance): Promise<Map<string, string[]>> {
  const docs = await app.inject({ method: 'GET', url: '/api/docs' });
  const paths = docs.json<{
    paths: Record<string, Record<string, { requestBody?: { content?: Record<string, unknown> } }>>;
    components?: { schemas?: Record<string, Schema> };
  }>();
  const fields = new Map<string, string[]>();
  const schemas = paths.components?.schemas ?? {};
  const fieldsOf = (schema: Schema | undefined): string[] => {
    if (!schema) return [];
    if (schema.$ref) return fieldsOf(schemas[schema.$ref.replace('#/components/schemas/', '')]);
    return [
      ...Object.keys(schema.properties ?? {}),
      ...[...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])].flatMap(fieldsOf),
    ];
  };
  for (const [path, item] of Object.entries(paths.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      const media = operation.requestBody?.content?.['application/json'] as { schema?: Schema } | undefined;
      const names = [...new Set(fieldsOf(media?.schema))];
      if (names.length > 0) fields.set(`${method.toUpperCase()} ${path}`, names);
    }
  }
  return fields;
}

/** The route's URL with every parameter (and a trailing wildcard) filled with `value`. */
export function fillParams(url: string, value: string): string {
  const filled = url.replace(/:\w+/g, value).replace(/\*$/, `${value}/deeper`);
  return filled.startsWith('/') ? filled : `/${filled}`;
}
