import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LOCK_SAFE_FROM, lockProblems } from './migration-check';

const migrationsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'db', 'migrations');

/** The problems of a fixture migration, one reason per refused statement. */
const problems = (sql: string) => lockProblems(sql).map((p) => p.problem);

describe('migrations that do not stop the portal', () => {
  it(`refuses nothing in the migrations numbered ${LOCK_SAFE_FROM} and above`, () => {
    const files = readdirSync(migrationsDir).filter(
      (f) => /^\d{3}_[\w-]+\.sql$/.test(f) && Number(f.slice(0, 3)) >= LOCK_SAFE_FROM,
    );
    const refused = files.flatMap((file) =>
      lockProblems(readFileSync(path.join(migrationsDir, file), 'utf8')).map(
        (p) => `${file}: ${p.statement}\n  ${p.problem}`,
      ),
    );
    expect(refused).toEqual([]);
  });

  it('accepts a new table with its indexes, constraints and columns in the same migration', () => {
    expect(
      problems(`
        CREATE TABLE bulk_stage (id bigserial PRIMARY KEY, customer_id text NOT NULL, code text);
        CREATE INDEX bulk_stage_customer_idx ON bulk_stage (customer_id);
        CREATE UNIQUE INDEX IF NOT EXISTS bulk_stage_code_idx ON public.bulk_stage (code);
        ALTER TABLE bulk_stage ADD COLUMN seen_at timestamptz NOT NULL;
        ALTER TABLE bulk_stage ADD CONSTRAINT bulk_stage_code_check CHECK (code <> '');
      `),
    ).toEqual([]);
  });

  it('accepts the lock-safe forms on an existing table', () => {
    expect(
      problems(`
        ALTER TABLE policy ADD COLUMN note text;
        ALTER TABLE policy ADD COLUMN IF NOT EXISTS flagged boolean NOT NULL DEFAULT false;
        ALTER TABLE policy ADD COLUMN loaded_at timestamptz NOT NULL DEFAULT now();
        ALTER TABLE policy ADD CONSTRAINT policy_customer_fk FOREIGN KEY (customer_id) REFERENCES customer (customer_id) NOT VALID;
        ALTER TABLE policy VALIDATE CONSTRAINT policy_customer_fk;
        ALTER TABLE policy ADD CONSTRAINT policy_note_check CHECK (note IS NOT NULL) NOT VALID;
        ALTER TABLE policy ADD CONSTRAINT policy_note_key UNIQUE USING INDEX policy_note_idx;
        ALTER TABLE policy DROP COLUMN IF EXISTS old_note;
        UPDATE policy SET note = '' WHERE note IS NULL AND policy_number = 'x';
      `),
    ).toEqual([]);
  });

  it('accepts a concurrent build in a no-transaction migration, written to run again', () => {
    expect(
      problems(`-- migrate: no-transaction
        -- Why: the account page filters on it.
        CREATE INDEX CONCURRENTLY IF NOT EXISTS policy_note_idx ON policy (note);
        CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS "policy_code_idx" ON ONLY public.policy (policy_number, note);
        DROP INDEX CONCURRENTLY IF EXISTS policy_old_idx;
      `),
    ).toEqual([]);
  });

  it('refuses CREATE INDEX without CONCURRENTLY on an existing table', () => {
    expect(problems('CREATE INDEX policy_note_idx ON policy (note);')).toEqual([
      expect.stringContaining('CREATE INDEX without CONCURRENTLY'),
    ]);
    expect(problems('CREATE UNIQUE INDEX IF NOT EXISTS policy_note_idx ON "policy" (note);')).toHaveLength(1);
    // A table created in another migration is an existing table, whatever this one creates.
    expect(
      problems('CREATE TABLE other (id int); CREATE INDEX policy_note_idx ON policy USING gin (holders);'),
    ).toHaveLength(1);
  });

  it('refuses CREATE INDEX CONCURRENTLY in a transaction, or without IF NOT EXISTS', () => {
    expect(problems('CREATE INDEX CONCURRENTLY IF NOT EXISTS policy_note_idx ON policy (note);')).toEqual([
      expect.stringContaining('cannot run in a transaction'),
    ]);
    expect(
      problems('-- migrate: no-transaction\nCREATE INDEX CONCURRENTLY policy_note_idx ON policy (note);'),
    ).toEqual([expect.stringContaining('IF NOT EXISTS')]);
    expect(problems('DROP INDEX CONCURRENTLY IF EXISTS policy_note_idx;')).toEqual([
      expect.stringContaining('cannot run in a transaction'),
    ]);
  });

  it('refuses anything but concurrent index statements in a no-transaction migration', () => {
    expect(
      problems(
        '-- migrate: no-transaction\nCREATE INDEX CONCURRENTLY IF NOT EXISTS policy_note_idx ON policy (note);\nALTER TABLE policy ADD COLUMN note text;',
      ),
    ).toEqual([expect.stringContaining('only concurrent index builds')]);
  });

  it('refuses a column added NOT NULL without a default, or with a rewriting default', () => {
    expect(problems('ALTER TABLE policy ADD COLUMN note text NOT NULL;')).toEqual([
      expect.stringContaining('NOT NULL without a default'),
    ]);
    expect(problems('ALTER TABLE policy ADD COLUMN token uuid NOT NULL DEFAULT gen_random_uuid();')).toEqual([
      expect.stringContaining('volatile default'),
    ]);
    expect(problems('ALTER TABLE policy ADD COLUMN seen timestamptz DEFAULT clock_timestamp();')).toEqual([
      expect.stringContaining('volatile default'),
    ]);
    expect(problems('ALTER TABLE policy ADD COLUMN n bigserial;')).toEqual([
      expect.stringContaining('serial column'),
    ]);
    expect(
      problems('ALTER TABLE policy ADD COLUMN total numeric GENERATED ALWAYS AS (premium * 12) STORED;'),
    ).toEqual([expect.stringContaining('stored generated column')]);
    expect(problems('ALTER TABLE policy ADD COLUMN code text UNIQUE;')).toEqual([
      expect.stringContaining('unique column'),
    ]);
  });

  it("refuses changing a column's type or setting it NOT NULL", () => {
    expect(problems('ALTER TABLE policy ALTER COLUMN annual_premium TYPE numeric(12, 2);')).toEqual([
      expect.stringContaining("changing a column's type"),
    ]);
    expect(problems('ALTER TABLE ONLY policy ALTER annual_premium SET DATA TYPE bigint;')).toHaveLength(1);
    expect(problems('ALTER TABLE policy ALTER COLUMN note SET NOT NULL;')).toEqual([
      expect.stringContaining('SET NOT NULL'),
    ]);
  });

  it('refuses a foreign key or check added without NOT VALID, and a unique constraint building its index', () => {
    expect(
      problems(
        'ALTER TABLE policy ADD CONSTRAINT policy_customer_fk FOREIGN KEY (customer_id) REFERENCES customer (customer_id);',
      ),
    ).toEqual([expect.stringContaining('NOT VALID')]);
    expect(problems('ALTER TABLE policy ADD CHECK (annual_premium >= 0);')).toEqual([
      expect.stringContaining('NOT VALID'),
    ]);
    expect(problems('ALTER TABLE policy ADD CONSTRAINT policy_note_key UNIQUE (note);')).toEqual([
      expect.stringContaining('USING INDEX'),
    ]);
    // Each action of one ALTER TABLE is checked.
    expect(
      problems(
        'ALTER TABLE policy ADD COLUMN note text, ADD CONSTRAINT note_check CHECK (length(note, 1) > 0), ALTER COLUMN status TYPE text;',
      ),
    ).toHaveLength(2);
  });

  it('refuses renames, rewrites and explicit locks', () => {
    expect(problems('ALTER TABLE policy RENAME COLUMN note TO remark;')).toEqual([
      expect.stringContaining('rename'),
    ]);
    expect(problems('VACUUM FULL policy;')).toHaveLength(1);
    expect(problems('CLUSTER policy USING policy_pkey;')).toHaveLength(1);
    expect(problems('LOCK TABLE policy IN ACCESS EXCLUSIVE MODE;')).toHaveLength(1);
    expect(problems('REINDEX TABLE policy;')).toHaveLength(1);
    expect(problems('REFRESH MATERIALIZED VIEW policy_summary;')).toHaveLength(1);
  });

  it('lets a statement through after a lock-safe comment giving the reason', () => {
    expect(
      problems(`
        -- lock-safe: staff_session holds a few hundred rows and customers never read it
        CREATE INDEX staff_session_subject_idx ON staff_session (subject);
        CREATE INDEX policy_note_idx ON policy (note);
      `),
    ).toEqual([expect.stringContaining('CREATE INDEX without CONCURRENTLY')]);
  });
});
