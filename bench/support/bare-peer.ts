/**
 * The bare peer of bench:api's customer data calls (issue 27): what this machine can do for a call
 * without the portal. A minimal Fastify server with a `pg` pool of the portal's size on the same
 * database, one route per call (GET /peer/N) that runs exactly the statements the portal ran for that
 * call (captured with PORTAL_SQL_CAPTURE_FILE, platform/sql-capture.ts): the same texts and parameters, in
 * the same order, those the portal ran at once run at once, a transaction's in one transaction, as named
 * prepared statements under the same names when the portal's were (platform/db.ts). It then
 * answers the rows as JSON, or for a PDF the PDF's bytes, compressed as the portal compresses
 * (@fastify/compress, the same threshold and encodings). No guard, validation, envelope, logging or
 * metrics. Its route for the portal's `/healthz` (no statements, the same answer) is the floor: what the
 * portal's per-request platform (ids, security headers, logging, metrics, CORS) costs before any guard or SQL.
 *
 * Run by bench/api-load.ts as its own process: `tsx bench/support/bare-peer.ts SPEC.json`; it prints
 * `listening` once ready. The spec: { databaseUrl, poolSize, port, calls: [{ batches, pdfFile?, answer? }] }.
 */
import { readFileSync } from 'node:fs';
import compress from '@fastify/compress';
import Fastify from 'fastify';
import pg from 'pg';

interface PeerStatement {
  sql: string;
  params: unknown[];
  /** The name the portal prepared it under; absent: run unnamed, as the portal ran it. */
  name?: string;
}

/** Statements run one after another; `parallel` ones at once; `transaction` ones in one transaction. */
export type PeerBatch =
  { kind: 'parallel'; statements: PeerStatement[] } | { kind: 'transaction'; statements: PeerStatement[] };

interface PeerCall {
  batches: PeerBatch[];
  /** For a PDF: a file holding the bytes the portal answered, sent after the statements. */
  pdfFile?: string;
  /** Answered as JSON in place of the rows: the portal's own answer for a call that runs no SQL. */
  answer?: unknown;
}

export interface PeerSpec {
  databaseUrl: string;
  poolSize: number;
  port: number;
  calls: PeerCall[];
}

/** JSON turns a Buffer parameter into { type: 'Buffer', data }: back into a Buffer. */
function revive(value: unknown): unknown {
  if (value && typeof value === 'object' && (value as { type?: unknown }).type === 'Buffer') {
    return Buffer.from((value as { data: number[] }).data);
  }
  return value;
}

async function main() {
  const specFile = process.argv[2];
  if (!specFile) throw new Error('usage: bare-peer.ts SPEC.json');
  const spec = JSON.parse(readFileSync(specFile, 'utf8')) as PeerSpec;
  const pool = new pg.Pool({ connectionString: spec.databaseUrl, max: spec.poolSize, keepAlive: true });
  pool.on('error', () => {});

  const app = Fastify({ logger: false });
  await app.register(compress, { global: true, threshold: 1024, encodings: ['br', 'gzip', 'deflate'] });

  for (const [n, call] of spec.calls.entries()) {
    const batches = call.batches.map((batch) => ({
      ...batch,
      statements: batch.statements.map((s) => {
        const values = s.params.map(revive);
        return s.name ? { name: s.name, text: s.sql, values } : { text: s.sql, values };
      }),
    }));
    const pdf = call.pdfFile ? readFileSync(call.pdfFile) : undefined;
    app.get(`/peer/${n}`, async (_request, reply) => {
      const results: unknown[][] = [];
      for (const batch of batches) {
        if (batch.kind === 'parallel') {
          const answers = await Promise.all(batch.statements.map((s) => pool.query(s)));
          for (const answer of answers) results.push(answer.rows);
          continue;
        }
        const client = await pool.connect();
        try {
          await client.query('BEGIN');
          for (const s of batch.statements) results.push((await client.query(s)).rows);
          await client.query('COMMIT');
        } catch (error) {
          await client.query('ROLLBACK').catch(() => {});
          throw error;
        } finally {
          client.release();
        }
      }
      if (pdf) return reply.type('application/pdf').send(pdf);
      return call.answer ?? results;
    });
  }

  await app.listen({ port: spec.port, host: '127.0.0.1' });
  console.log('listening');
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      void app
        .close()
        .then(() => pool.end())
        .finally(() => process.exit(0));
    });
  }
}

await main();
