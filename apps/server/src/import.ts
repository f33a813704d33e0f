/**
 * `npm run import -- FILE [--from LINE] [--restart]`: loads an NDJSON file of the insurer's records
 * straight into the configured database (DATABASE_URL, or the embedded one in DATA_DIR while no portal
 * uses it), through the same code as POST /integration/v1/bulk, line by line, each line on its own.
 * For the first load and nightly loads. Progress is kept beside the file (FILE.progress): a load that was
 * stopped resumes after the last line it applied; --from starts at a given line, --restart from the top.
 * Refused lines are written to FILE.refused.ndjson with their reason.
 */
import { createReadStream, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { appendFile } from 'node:fs/promises';
import path from 'node:path';
import { ConfigError, loadConfig } from './config';
import { openCliDb } from './platform/cli-db';
import { migrate } from './platform/db';
import { systemClock } from './platform/clock';
import type { ModuleContext } from './platform/module';
import type { Services } from './platform/services';
import { createServices } from './modules';
import { bulkLoad } from './modules/integration/bulk';

const PROGRESS_EVERY = 1000;

function usage(message?: string): never {
  if (message) console.error(message);
  console.error('Usage: npm run import -- FILE [--from LINE] [--restart]');
  process.exit(2);
}

function parseArgs(argv: string[]) {
  let file: string | undefined;
  let from: number | undefined;
  let restart = false;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    if (arg === '--from') {
      const n = Number(argv[++i]);
      if (!Number.isInteger(n) || n < 1) usage('--from needs a line number (1 or more)');
      from = n;
    } else if (arg === '--restart') restart = true;
    else if (arg.startsWith('--')) usage(`Unknown option ${arg}`);
    else if (file) usage('Give one file');
    else file = arg;
  }
  if (!file) usage();
  return { file: path.resolve(file), from, restart };
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  if (!existsSync(args.file)) usage(`No such file: ${args.file}`);
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) usage(error.message);
    throw error;
  }
  const progressFile = `${args.file}.progress`;
  const refusedFile = `${args.file}.refused.ndjson`;
  if (args.restart) rmSync(progressFile, { force: true });
  const saved = existsSync(progressFile)
    ? (JSON.parse(readFileSync(progressFile, 'utf8')) as { line: number }).line
    : 0;
  const fromLine = args.from ?? saved + 1;
  if (fromLine > 1) console.log(`Resuming at line ${fromLine} (${progressFile}; --restart to start again).`);
  if (fromLine === 1) rmSync(refusedFile, { force: true });

  const { db, stop } = await openCliDb(config, usage);
  let interrupted = false;
  process.on('SIGINT', () => {
    interrupted = true;
  });

  let last = fromLine - 1;
  let finished = false;
  try {
    await migrate(db);
    const ctx: ModuleContext = { config, db, clock: systemClock, services: {} as Services };
    await createServices(ctx);
    const started = performance.now();
    let applied = 0;
    const input = createReadStream(args.file);
    for await (const result of bulkLoad(ctx, input, { clientId: 'import', correlationId: null }, 'all', {
      fromLine,
    })) {
      if ('summary' in result) {
        const seconds = (performance.now() - started) / 1000;
        const s = result.summary;
        console.log(
          `Done: ${s.lines} lines in ${seconds.toFixed(1)} s (${Math.round(s.lines / Math.max(seconds, 0.001))} lines/s): ` +
            `${s.created} created, ${s.updated} updated, ${s.unchanged} unchanged, ${s.removed} removed, ${s.refused} refused` +
            (s.refused > 0 ? ` (reasons in ${refusedFile})` : ''),
        );
        break;
      }
      if (!('line' in result)) continue;
      if (result.status === 'refused') await appendFile(refusedFile, `${JSON.stringify(result)}\n`);
      last = result.line;
      applied += 1;
      if (applied % PROGRESS_EVERY === 0) {
        writeFileSync(progressFile, JSON.stringify({ line: last }));
        const seconds = (performance.now() - started) / 1000;
        console.log(`  line ${last}: ${Math.round(applied / seconds)} lines/s`);
      }
      if (interrupted) {
        writeFileSync(progressFile, JSON.stringify({ line: last }));
        console.log(`Stopped after line ${last}; run the same command to resume.`);
        input.destroy();
        finished = true;
        return;
      }
    }
    finished = true;
    rmSync(progressFile, { force: true });
  } finally {
    // Stopped by an error: resume after the last line applied.
    if (!finished && last >= fromLine) writeFileSync(progressFile, JSON.stringify({ line: last }));
    await stop();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(`The import stopped: ${error instanceof Error ? error.message : String(error)}`);
    console.error('Run the same command again to resume after the last line applied.');
    process.exit(1);
  },
);
