import { z } from 'zod/mini';

/**
 * A contract's success response as a JSON Schema that Fastify compiles into the route's serializer
 * (fast-json-stringify): the answer is written straight from the handler's value, and only the fields the
 * contract names are written, so nothing else leaves the server. This replaces parsing every answer with
 * zod before JSON.stringify (decision 030); in tests every answer is still checked against the zod schema
 * (route.ts, contractCheck).
 *
 * Only for schemas whose every part the serializer writes exactly as zod's output would be: plain
 * objects, arrays, strings, numbers, booleans, enums and literals, each of them optionally nullable. A
 * schema with anything else (unions, defaults, transforms, references, intersections) answers undefined,
 * and its route keeps parsing with zod.
 */
export function serializerSchema(schema: z.core.$ZodType): Record<string, unknown> | undefined {
  let json: Record<string, unknown>;
  try {
    json = z.toJSONSchema(schema, {
      target: 'draft-7',
      io: 'output',
      unrepresentable: 'throw',
      reused: 'inline',
      cycles: 'throw',
    }) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  const { $schema: _ignored, definitions, ...rest } = json;
  const inlined = inline(rest, isObject(definitions) ? definitions : {}, 0);
  const simple = inlined && simplify(inlined);
  return simple && serializable(simple) ? simple : undefined;
}

type Json = Record<string, unknown>;

/** The contracts' named schemas come as `$ref`s to `definitions`: written out in place (never a cycle). */
function inline(node: unknown, definitions: Json, depth: number): Json | undefined {
  if (depth > 32 || !isObject(node)) return undefined;
  const ref = node['$ref'];
  if (typeof ref === 'string') {
    const target = ref.startsWith('#/definitions/')
      ? definitions[ref.slice('#/definitions/'.length)]
      : undefined;
    if (Object.keys(node).length !== 1 || !isObject(target)) return undefined;
    return inline(target, definitions, depth + 1);
  }
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'properties' && isObject(value)) {
      const properties: Json = {};
      for (const [name, child] of Object.entries(value)) {
        const done = inline(child, definitions, depth + 1);
        if (!done) return undefined;
        properties[name] = done;
      }
      out[key] = properties;
    } else if ((key === 'items' || key === 'additionalProperties') && isObject(value)) {
      const done = inline(value, definitions, depth + 1);
      if (!done) return undefined;
      out[key] = done;
    } else if (key === 'anyOf' && Array.isArray(value)) {
      const branches = value.map((branch) => inline(branch, definitions, depth + 1));
      if (branches.some((branch) => !branch)) return undefined;
      out[key] = branches;
    } else {
      out[key] = value;
    }
  }
  return out;
}

const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** `anyOf: [X, {type: 'null'}]` (zod's nullable) as X with `type: [X's type, 'null']`, everywhere. */
function simplify(node: Json): Json | undefined {
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'properties' && isObject(value)) {
      const properties: Json = {};
      for (const [name, child] of Object.entries(value)) {
        const simple = isObject(child) ? simplify(child) : undefined;
        if (!simple) return undefined;
        properties[name] = simple;
      }
      out[key] = properties;
    } else if ((key === 'items' || key === 'additionalProperties') && isObject(value)) {
      const simple = simplify(value);
      if (!simple) return undefined;
      out[key] = simple;
    } else {
      out[key] = value;
    }
  }
  const anyOf = out['anyOf'];
  if (Array.isArray(anyOf) && anyOf.length === 2 && Object.keys(out).length === 1) {
    const nullAt = anyOf.findIndex((branch) => isObject(branch) && branch['type'] === 'null');
    const other = anyOf[1 - nullAt] as unknown;
    if (nullAt !== -1 && isObject(other) && typeof other['type'] === 'string') {
      const simple = simplify(other);
      if (!simple) return undefined;
      return { ...simple, type: [other['type'], 'null'] };
    }
  }
  return out;
}

const TYPES = new Set(['object', 'array', 'string', 'number', 'integer', 'boolean', 'null']);
/** Keywords that only validate: the serializer ignores them, and zod's output is the value itself. */
const IGNORED = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'enum',
  'const',
  'format',
  'pattern',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minItems',
  'maxItems',
  'description',
  'title',
]);

/** Whether the serializer writes a value of this schema exactly as zod's parse would leave it. */
function serializable(node: Json): boolean {
  for (const key of Object.keys(node)) if (!IGNORED.has(key)) return false;
  const types = [node['type']].flat();
  if (types.length === 0 || !types.every((t) => typeof t === 'string' && TYPES.has(t))) return false;
  if (types.includes('object')) {
    // A record (additionalProperties with a schema) is written key by key: fine; extra keys of a plain
    // object are dropped, as zod drops them.
    const properties = node['properties'];
    if (properties !== undefined && !isObject(properties)) return false;
    for (const child of Object.values((properties as Json | undefined) ?? {})) {
      if (!isObject(child) || !serializable(child)) return false;
    }
    const additional = node['additionalProperties'];
    if (isObject(additional) && !serializable(additional)) return false;
  }
  if (types.includes('array')) {
    const items = node['items'];
    if (!isObject(items) || !serializable(items)) return false;
  }
  return true;
}
