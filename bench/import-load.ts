/**
 * Bulk-load benchmark (issues 22, 43): `npm run import` of N sample customers with two policies each (3N
 * lines; default N = 100,000) into a fresh database, on the embedded database and, when DATABASE_URL is
 * set, on PostgreSQL (a database of its own, `portal_bench_import` unless --database, made afresh). For
 * each: the time and lines (rows) per second of the first load, of the same file again (every line
 * `unchanged`), and a baseline measured in the same run on the same database: one INSERT per line, each
 * in its own transaction, into a bare table (what a line-at-a-time load costs before any rule). Reports
 * figures and the ratio to that baseline; it asserts nothing.
 *
 * Options: --customers N, --only pglite|postgres, --database NAME (the PostgreSQL database made afresh;
 * default portal_bench_import: give another when someone else may be running the bench on that server).
 */
import { spawn } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { once } from 'node:events';
import { openDb, type Db } from '../apps/server/src/platform/db';
// @ts-expect-error -- a plain ES module of the scripts folder, shared with npm run integration:demo
import { sampleLines } from '../scripts/integration-sample.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i === -1 ? undefined : process.argv[i + 1];
};
const customers = Number(arg('--customers') ?? 100_000);
const only = arg('--only');
const database = arg('--database') ?? 'portal_bench_import';
if (!/^[a-z_][a-z0-9_]{0,62}$/.test(database)) {
  console.error('bench:import: --database needs a plain database name (a-z, 0-9, _)');
  process.exit(2);
}
if (!Number.isInteger(customers) || customers < 1) {
  console.error('bench:import: --customers needs a whole number');
  process.exit(2);
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      process.stdout.write(`    ${d.toString().trimEnd().split('\n').join('\n    ')}\n`);
    });
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`${command} exited ${code}: ${out.slice(-2000)}`)),
    );
  });
}

interface Pass {
  seconds: number;
  lines: number;
}

function parseDone(out: string): Pass {
  const m = /Done: (\d+) lines in ([\d.]+) s/.exec(out);
  if (!m) throw new Error(`no result line in:\n${out.slice(-1500)}`);
  return { lines: Number(m[1]), seconds: Number(m[2]) };
}

/** One INSERT per line, each its own transaction, into a bare table: the floor of a line-at-a-time load. */
async function baseline(db: Db, lines: string[]): Promise<Pass> {
  await db.exec(
    'DROP TABLE IF EXISTS bench_bare_line; CREATE TABLE bench_bare_line (key text PRIMARY KEY, body jsonb NOT NULL)',
  );
  const started = performance.now();
  for (const line of lines) {
    const { key } = JSON.parse(line) as { key: string };
    await db.transaction((tx) =>
      tx.query('INSERT INTO bench_bare_line (key, body) VALUES ($1, $2::jsonb)', [`${key}`, line]),
    );
  }
  const seconds = (performance.now() - started) / 1000;
  await db.exec('DROP TABLE bench_bare_line');
  return { seconds, lines: lines.length };
}

const rate = (p: Pass) => Math.round(p.lines / p.seconds);

function report(name: string, first: Pass, again: Pass, bare: Pass) {
  console.log(
    `\n  ${name}: ${customers.toLocaleString('en-GB')} customers, ${first.lines.toLocaleString('en-GB')} lines`,
  );
  console.log(
    `    first load        ${first.seconds.toFixed(1).padStart(8)} s  ${String(rate(first)).padStart(7)} lines/s  ratio to baseline ${(rate(first) / rate(bare)).toFixed(2)}`,
  );
  console.log(
    `    same file again   ${again.seconds.toFixed(1).padStart(8)} s  ${String(rate(again)).padStart(7)} lines/s  ratio to baseline ${(rate(again) / rate(bare)).toFixed(2)}`,
  );
  console.log(
    `    baseline (bare)   ${bare.seconds.toFixed(1).padStart(8)} s  ${String(rate(bare)).padStart(7)} lines/s`,
  );
}

async function main() {
  const work = mkdtempSync(path.join(os.tmpdir(), 'portal-bench-import-'));
  const file = path.join(work, 'sample.ndjson');
  const lines: string[] = [];
  const out = createWriteStream(file);
  for (const line of sampleLines({ from: 1, to: customers, version: 1 }) as Iterable<string>) {
    lines.push(line);
    if (!out.write(`${line}\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  console.log(`bench:import: ${lines.length.toLocaleString('en-GB')} lines in ${file}`);
  const env = { NODE_ENV: 'development', SEED_DEMO_DATA: 'false', LOG_LEVEL: 'warn', REDIS_URL: '' };
  const importOnce = (extra: NodeJS.ProcessEnv) =>
    run('npx', ['tsx', 'apps/server/src/import.ts', file, '--restart'], { ...env, ...extra }).then(parseDone);
  try {
    if (only !== 'postgres') {
      const dataDir = path.join(work, 'data');
      console.log('  embedded database: creating it (migrations, reference data)...');
      await run('npx', ['tsx', 'apps/server/src/server.ts', '--prepare-db', path.join(dataDir, 'pglite')], {
        ...env,
        DATABASE_URL: '',
        DATA_DIR: dataDir,
      });
      const dbEnv = { DATABASE_URL: '', DATA_DIR: dataDir };
      const first = await importOnce(dbEnv);
      const again = await importOnce(dbEnv);
      const db = await openDb({ kind: 'pglite', dataDir: path.join(dataDir, 'pglite') });
      const bare = await baseline(db, lines).finally(() => db.close());
      report('Embedded database (PGlite)', first, again, bare);
    }
    const url = process.env['DATABASE_URL'];
    if (url && only !== 'pglite') {
      const admin = await openDb({ kind: 'postgres', url, max: 1 });
      await admin.exec(`DROP DATABASE IF EXISTS ${database}`);
      await admin.exec(`CREATE DATABASE ${database}`);
      await admin.close();
      const target = new URL(url);
      target.pathname = `/${database}`;
      const dbEnv = { DATABASE_URL: target.href };
      const first = await importOnce(dbEnv);
      const again = await importOnce(dbEnv);
      const db = await openDb({ kind: 'postgres', url: target.href, max: 1 });
      const bare = await baseline(db, lines).finally(() => db.close());
      report('PostgreSQL', first, again, bare);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(`bench:import failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
