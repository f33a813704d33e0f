/**
 * Start-up benchmark: how long `npm start` takes until the portal answers /readyz, on the embedded
 * database, for the first start (creates the database) and for later starts (the target: under 2 s),
 * with the server's own account of where the time went (the phases of its 'ready' log line) and its
 * resident memory (target: under 450 MB on PGlite).
 *
 * Run with `npm run bench:startup`. A first, unmeasured start builds whatever is stale. Options: `--runs N` (later starts measured, default 7). Uses its
 * own data directory and port, so a running portal is not disturbed. Exits 1 when the median later
 * start is over the target.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { answers, median, sleep, spawnUntilReady, stopGroup } from './support/portal';

const port = 3390;
const targetMs = 2000;
const memoryTargetMb = 450;

const runsArg = process.argv.indexOf('--runs');
const runs = runsArg === -1 ? 7 : Number(process.argv[runsArg + 1]);
if (!Number.isInteger(runs) || runs < 1) {
  console.error('bench:startup: --runs needs a whole number of at least 1');
  process.exit(2);
}

interface Run {
  readyMs: number;
  serverMs?: number;
  phases?: Record<string, number>;
  rssMb?: number;
}

/** One `npm start`, timed from spawning npm to the first 200 from /readyz. */
async function startOnce(dataDir: string): Promise<Run> {
  // Another server (a previous run still stopping) must not answer for this one.
  while (await answers(`http://127.0.0.1:${port}/healthz`)) await sleep(100);
  const { child, output, readyMs } = await spawnUntilReady('npm', ['start'], {
    url: `http://127.0.0.1:${port}`,
    timeoutMs: 120_000,
    pollMs: 10,
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      NODE_ENV: 'development',
    },
  });
  try {
    const line = output()
      .split('\n')
      .find((l) => l.includes('"msg":"ready"'));
    const ready = line
      ? (JSON.parse(line) as { startMs?: number; phases?: Record<string, number>; rssMb?: number })
      : {};
    return { readyMs, serverMs: ready.startMs, phases: ready.phases, rssMb: ready.rssMb };
  } finally {
    await stopGroup(child);
  }
}

const ms = (value: number | undefined) => (value === undefined ? '-' : `${Math.round(value)}`);

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'portal-bench-startup-'));
const warmDir = mkdtempSync(path.join(os.tmpdir(), 'portal-bench-warm-'));
try {
  // Builds what is stale (not measured), then the first start proper on a new data directory.
  await startOnce(warmDir);
  const first = await startOnce(dataDir);
  const later: Run[] = [];
  for (let i = 0; i < runs; i++) later.push(await startOnce(dataDir));

  const phaseNames = [...new Set(later.flatMap((r) => Object.keys(r.phases ?? {})))];
  console.log(
    `npm start until /readyz answers, embedded database (${os.cpus().length} cores, Node ${process.version})\n`,
  );
  console.log(
    ['run', 'ready ms', 'server ms', ...phaseNames, 'RSS MB']
      .map((h) => h.padStart(Math.max(10, h.length + 2)))
      .join(''),
  );
  const widths = ['run', 'ready ms', 'server ms', ...phaseNames, 'RSS MB'].map((h) =>
    Math.max(10, h.length + 2),
  );
  const row = (name: string, r: Run) =>
    console.log(
      [name, ms(r.readyMs), ms(r.serverMs), ...phaseNames.map((p) => ms(r.phases?.[p])), ms(r.rssMb)]
        .map((c, i) => c.padStart(widths[i]!))
        .join(''),
    );
  row('first', first);
  later.forEach((r, i) => row(`later ${i + 1}`, r));

  const readies = later.map((r) => r.readyMs);
  const medianReady = median(readies);
  const maxRss = Math.max(...later.map((r) => r.rssMb ?? 0), first.rssMb ?? 0);
  console.log(
    `\nLater starts: median ${ms(medianReady)} ms (min ${ms(Math.min(...readies))}, max ${ms(Math.max(...readies))}),` +
      ` ${(medianReady / targetMs).toFixed(2)} of the ${targetMs} ms target; first start ${ms(first.readyMs)} ms.`,
  );
  console.log(
    `Server memory: up to ${maxRss} MB resident (${(maxRss / memoryTargetMb).toFixed(2)} of ${memoryTargetMb} MB).`,
  );
  const ok = medianReady < targetMs && maxRss < memoryTargetMb;
  console.log(`Verdict: ${ok ? 'ok' : 'OVER TARGET'}`);
  process.exitCode = ok ? 0 : 1;
} finally {
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(warmDir, { recursive: true, force: true });
}
