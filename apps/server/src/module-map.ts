/**
 * The server's module map as the code has it (`npm run modules`, and a test that holds the code to it):
 * the layers of modules/map.json, each module's run-time edges (the services it declares it uses, and the
 * module that provides each), its static imports of other modules and of db/, and the tables its SQL
 * names against those it declares. Printed as a picture from the top of the map down, with what breaks
 * the rules: an edge that goes up or sideways, a cycle, an import of another module's inner file, a
 * module importing db/, the platform importing a module or db/, SQL naming a table another owns.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { moduleMap, modules } from './modules';
import map from './modules/map.json';

const src = path.dirname(fileURLToPath(import.meta.url));
const modulesDir = path.join(src, 'modules');
const migrationsDir = path.join(src, 'db', 'migrations');

/** The platform's own tables (platform/): the audit trail, the queues, counters, the seed's state. */
export const platformTables = [
  'audit_event',
  'message_queue',
  'outbox_message',
  'rate_counter_hit',
  'seed_state',
  'schema_migrations',
  'document_rendition',
  'integration_event',
] as const;

/** Services a module below declares and one above provides, joined by the composition (map.json). */
const ports = new Set<string>(map.ports);

export interface ModuleEdge {
  from: string;
  to: string;
  /** `uses` (a service called at run time) or `import` (a static import of the module's code). */
  kind: 'uses' | 'import';
  /** For a use: the service; for an import: the file imported, relative to modules/. */
  via: string;
}

export interface MapProblem {
  rule: string;
  detail: string;
}

export interface ModuleMapReport {
  layers: readonly (readonly string[])[];
  edges: ModuleEdge[];
  tables: Record<string, readonly string[]>;
  problems: MapProblem[];
}

/** Every .ts file under dir that is the module's code (not a test or its support). */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const file = path.join(dir, entry);
    if (statSync(file).isDirectory()) return sourceFiles(file);
    if (!entry.endsWith('.ts') || /\.test\.ts$|test-support\.ts$|\.d\.ts$/.test(entry)) return [];
    return [file];
  });
}

/** The relative imports of a file, resolved to paths under src/. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found: string[] = [];
  for (const match of text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s+'(\.[^']+)'/g)) {
    found.push(path.resolve(path.dirname(file), match[1]!));
  }
  for (const match of text.matchAll(/(?:^|\n)\s*import\s+'(\.[^']+)'/g)) {
    found.push(path.resolve(path.dirname(file), match[1]!));
  }
  for (const match of text.matchAll(/import\(\s*'(\.[^']+)'\s*\)/g)) {
    found.push(path.resolve(path.dirname(file), match[1]!));
  }
  return found;
}

/** Every table the migrations create. */
function migrationTables(): string[] {
  return readdirSync(migrationsDir)
    .filter((f) => f.endsWith('.sql'))
    .flatMap((f) =>
      [...readFileSync(path.join(migrationsDir, f), 'utf8').matchAll(/CREATE TABLE (\w+)/g)].map(
        (m) => m[1]!,
      ),
    );
}

/** The tables a file's SQL reads or writes (FROM, JOIN, INTO, UPDATE, DELETE FROM, TABLE). */
function tablesNamedIn(file: string, known: readonly string[]): string[] {
  const text = readFileSync(file, 'utf8');
  const pattern = new RegExp(`\\b(?:FROM|JOIN|INTO|UPDATE|TABLE)\\s+(${known.join('|')})\\b`, 'g');
  return [...new Set([...text.matchAll(pattern)].map((m) => m[1]!))];
}

/** Reads the map from the code and checks it. */
export function readModuleMap(): ModuleMapReport {
  const problems: MapProblem[] = [];
  const layerOf = new Map<string, number>();
  moduleMap.forEach((layer, i) => layer.forEach((name) => layerOf.set(name, i)));
  const names = modules.map((m) => m.name);
  for (const name of names)
    if (!layerOf.has(name)) problems.push({ rule: 'on the map', detail: `${name} is on no layer` });
  for (const name of layerOf.keys())
    if (!names.includes(name)) problems.push({ rule: 'on the map', detail: `${name} is no module` });

  // Run-time edges: each service used, to the module that provides it.
  const providerOf = new Map<string, string>();
  for (const mod of modules) for (const key of Object.keys(mod.provides ?? {})) providerOf.set(key, mod.name);
  const edges: ModuleEdge[] = [];
  for (const mod of modules) {
    for (const service of (mod.uses ?? []) as string[]) {
      const provider = providerOf.get(service);
      if (!provider) {
        // A port the composition makes of every module (erasure), or nobody's: only ports may be.
        if (!ports.has(service))
          problems.push({
            rule: 'provided',
            detail: `${mod.name} uses ${service}, which no module provides`,
          });
        continue;
      }
      if (ports.has(service)) continue;
      edges.push({ from: mod.name, to: provider, kind: 'uses', via: service });
    }
  }

  // Static imports between modules, of db/, and the platform's.
  // The module a resolved import lands in: a file inside its folder, or the folder itself (its index.ts).
  const moduleOfFile = (file: string): string | undefined => {
    const rel = path.relative(modulesDir, file);
    if (rel.startsWith('..') || rel === '') return undefined;
    const [first, ...rest] = rel.split(path.sep);
    return rest.length > 0 || names.includes(first!) ? first : undefined;
  };
  for (const name of names) {
    for (const file of sourceFiles(path.join(modulesDir, name))) {
      for (const target of importsOf(file)) {
        const other = moduleOfFile(target);
        const relTarget = path.relative(modulesDir, target);
        if (other && other !== name) {
          edges.push({ from: name, to: other, kind: 'import', via: relTarget });
          if (relTarget !== other && !/^[^/\\]+[/\\]index(\.ts)?$/.test(relTarget))
            problems.push({
              rule: 'one door',
              detail: `${path.relative(src, file)} imports ${relTarget}: import the module's index.ts`,
            });
        }
        if (path.relative(path.join(src, 'db'), target).split(path.sep)[0] !== '..')
          problems.push({ rule: 'no db/', detail: `${path.relative(src, file)} imports db/` });
      }
    }
  }
  for (const file of sourceFiles(path.join(src, 'platform'))) {
    for (const target of importsOf(file)) {
      const rel = path.relative(src, target);
      if (rel.startsWith(`modules${path.sep}`) || rel.startsWith(`db${path.sep}`))
        problems.push({ rule: 'platform below', detail: `${path.relative(src, file)} imports ${rel}` });
    }
  }

  // Every edge goes down the map.
  for (const edge of edges) {
    const from = layerOf.get(edge.from);
    const to = layerOf.get(edge.to);
    if (from !== undefined && to !== undefined && to >= from)
      problems.push({
        rule: 'only down',
        detail: `${edge.from} ${edge.kind === 'uses' ? 'uses' : 'imports'} ${edge.via} of ${edge.to}, not below it`,
      });
  }
  // No cycle (edges only down already rule them out; this says so in the terms of the graph itself).
  const next = new Map<string, Set<string>>();
  for (const e of edges) next.set(e.from, (next.get(e.from) ?? new Set()).add(e.to));
  const state = new Map<string, 'open' | 'done'>();
  const visit = (node: string, trail: string[]): void => {
    if (state.get(node) === 'done') return;
    if (state.get(node) === 'open') {
      problems.push({ rule: 'no cycle', detail: [...trail.slice(trail.indexOf(node)), node].join(' -> ') });
      return;
    }
    state.set(node, 'open');
    for (const to of next.get(node) ?? []) visit(to, [...trail, node]);
    state.set(node, 'done');
  };
  for (const name of names) visit(name, []);

  // Each table has one owner, and a module's SQL names only its own.
  const known = migrationTables();
  const tables: Record<string, readonly string[]> = { platform: platformTables };
  const owner = new Map<string, string>(platformTables.map((t) => [t, 'platform']));
  for (const mod of modules) {
    tables[mod.name] = mod.tables ?? [];
    for (const table of mod.tables ?? []) {
      const held = owner.get(table);
      if (held)
        problems.push({ rule: 'one owner', detail: `${table} is declared by ${held} and ${mod.name}` });
      owner.set(table, mod.name);
    }
  }
  for (const table of known)
    if (!owner.has(table)) problems.push({ rule: 'one owner', detail: `${table} is declared by no one` });
  const sqlScopes: Array<[string, string]> = [
    ...names.map((name): [string, string] => [name, path.join(modulesDir, name)]),
    ['platform', path.join(src, 'platform')],
  ];
  for (const [scope, dir] of sqlScopes) {
    for (const file of sourceFiles(dir)) {
      for (const table of tablesNamedIn(file, known)) {
        if (owner.get(table) !== scope)
          problems.push({
            rule: 'own tables',
            detail: `${path.relative(src, file)} names ${table}, which is ${owner.get(table) ?? 'no one'}'s`,
          });
      }
    }
  }
  return { layers: moduleMap, edges, tables, problems };
}

/** The map as text: the layers from the top down, each module's edges, then what breaks the rules. */
export function describeModuleMap(report: ModuleMapReport): string {
  const lines: string[] = [
    "The server's module map, from the top down (apps/server/src/modules/map.json):",
    '',
  ];
  const layers = [...report.layers].reverse();
  layers.forEach((layer, i) => {
    lines.push(`${String(layers.length - i).padStart(2)}  ${layer.join(', ')}`);
    for (const name of layer) {
      const uses = report.edges.filter((e) => e.from === name && e.kind === 'uses');
      const imports = [
        ...new Set(report.edges.filter((e) => e.from === name && e.kind === 'import').map((e) => e.to)),
      ];
      const parts = [
        uses.length > 0 ? `uses ${uses.map((e) => `${e.via} (${e.to})`).join(', ')}` : 'uses no module',
        ...(imports.length > 0 ? [`imports ${imports.join(', ')}`] : []),
        `tables ${report.tables[name]?.join(', ') || 'none'}`,
      ];
      lines.push(`      ${name}: ${parts.join('; ')}`);
    }
  });
  lines.push(`      platform (below every module): tables ${report.tables['platform']?.join(', ')}`);
  lines.push('', `Ports, joined by the composition (modules/index.ts): ${map.ports.join(', ')}.`, '');
  if (report.problems.length === 0) {
    lines.push('Every edge goes down the map; no cycle; each module imports others by their index.ts only,');
    lines.push(
      'none imports db/, the platform imports no module; each table has one owner, named only by it.',
    );
  } else {
    lines.push(`${report.problems.length} problem(s):`);
    for (const p of report.problems) lines.push(`  [${p.rule}] ${p.detail}`);
  }
  return lines.join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const report = readModuleMap();
  console.log(describeModuleMap(report));
  process.exitCode = report.problems.length === 0 ? 0 : 1;
}
