import { runsOutsideTransaction, splitSql } from './db';

/**
 * Migrations numbered from here on must not stop the portal (issue 43): each runs beside the version
 * already serving customers, on a database of real size, so none may hold a lock customers' calls wait
 * on for longer than a moment. Those before it are grandfathered (they ran on small databases).
 */
export const LOCK_SAFE_FROM = 200;

/** A comment line that exempts the statement after it, with the reason (a table customers never read). */
const EXEMPT = /^--\s*lock-safe:\s*\S/;
const EXEMPT_TOKEN = '/*lock-safe*/';

/** One statement a migration may not run on an existing table, and why. */
interface LockProblem {
  statement: string;
  problem: string;
}

/** A name as PostgreSQL folds it: quotes removed, unquoted names in lower case, schema dropped. */
function bareName(name: string): string {
  const last = name.split('.').pop() ?? name;
  return last.startsWith('"') ? last.slice(1, -1) : last.toLowerCase();
}

/** The actions of an ALTER TABLE, split at the commas outside parentheses. */
function actionsOf(body: string): string[] {
  const actions: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of body) {
    if (ch === '(') depth += 1;
    if (ch === ')') depth -= 1;
    if (ch === ',' && depth === 0) {
      actions.push(current.trim());
      current = '';
      continue;
    }
    current += ch;
  }
  if (current.trim()) actions.push(current.trim());
  return actions;
}

/** Functions whose value differs row by row: a column added with one as its default rewrites the table. */
const VOLATILE_DEFAULT =
  /\bDEFAULT\b[\s\S]*\b(random|clock_timestamp|timeofday|gen_random_uuid|uuid_generate_v[14]|nextval|txid_current|statement_timestamp)\s*\(/i;

const IDENT = String.raw`(?:"[^"]+"|[\w$]+)(?:\.(?:"[^"]+"|[\w$]+))?`;

function columnProblems(action: string): string[] {
  const problems: string[] = [];
  const upper = action.toUpperCase();
  if (/\b(SMALL|BIG)?SERIAL\b/.test(upper)) {
    problems.push('a serial column fills every row from a sequence: the table is rewritten under lock');
  } else if (VOLATILE_DEFAULT.test(action)) {
    problems.push('a volatile default is computed for every row: the table is rewritten under lock');
  } else if (/\bNOT\s+NULL\b/.test(upper) && !/\bDEFAULT\b/.test(upper)) {
    problems.push(
      'NOT NULL without a default fails on a table with rows: add it nullable (or with a constant default), backfill in batches, then add a CHECK (... IS NOT NULL) NOT VALID and validate it',
    );
  }
  if (/\bGENERATED\s+ALWAYS\s+AS\s*\(/.test(upper) && /\bSTORED\b/.test(upper)) {
    problems.push('a stored generated column is computed for every row: the table is rewritten under lock');
  }
  if (/\b(PRIMARY\s+KEY|UNIQUE)\b/.test(upper)) {
    problems.push(
      'a unique column builds its index under an exclusive lock: create the index concurrently, then ADD CONSTRAINT ... USING INDEX',
    );
  }
  return problems;
}

function constraintProblems(action: string): string[] {
  const upper = action.toUpperCase();
  if (/\b(FOREIGN\s+KEY|CHECK)\b/.test(upper) && !/\bNOT\s+VALID\b/.test(upper)) {
    return [
      'a constraint added without NOT VALID reads every row under lock: add it NOT VALID, then VALIDATE CONSTRAINT (in a later statement or migration)',
    ];
  }
  if (/\b(PRIMARY\s+KEY|UNIQUE)\b/.test(upper) && !/\bUSING\s+INDEX\b/.test(upper)) {
    return [
      'a unique or primary key constraint builds its index under an exclusive lock: create the index concurrently, then ADD CONSTRAINT ... USING INDEX',
    ];
  }
  if (/\bEXCLUDE\b/.test(upper)) {
    return ['an exclusion constraint builds its index under an exclusive lock'];
  }
  return [];
}

function alterTableProblems(actions: string[]): string[] {
  const problems: string[] = [];
  for (const action of actions) {
    const upper = action.toUpperCase();
    if (/^ADD\s+(CONSTRAINT\b|PRIMARY\s+KEY\b|UNIQUE\b|FOREIGN\s+KEY\b|CHECK\b|EXCLUDE\b)/.test(upper)) {
      problems.push(...constraintProblems(action));
    } else if (/^ADD\b/.test(upper)) {
      problems.push(...columnProblems(action));
    } else if (/^ALTER\s+(COLUMN\s+)?\S+\s+(SET\s+DATA\s+)?TYPE\b/.test(upper)) {
      problems.push(
        "changing a column's type rewrites the table under lock (and the running version reads the old type): add a new column, backfill it, switch, then drop the old one",
      );
    } else if (/^ALTER\s+(COLUMN\s+)?\S+\s+SET\s+NOT\s+NULL\b/.test(upper)) {
      problems.push(
        'SET NOT NULL reads every row under an exclusive lock: add a CHECK (... IS NOT NULL) NOT VALID constraint and validate it instead',
      );
    } else if (/^RENAME\b/.test(upper)) {
      problems.push('a rename breaks the version still running: add the new name beside the old one');
    } else if (/^SET\s+(TABLESPACE|LOGGED|UNLOGGED)\b/.test(upper)) {
      problems.push('this rewrites the table under an exclusive lock');
    }
  }
  return problems;
}

/**
 * The statements of a migration that would lock a table customers read for longer than a moment, or
 * could not run as written: each with the reason. Tables the migration creates itself are exempt (nobody
 * reads them yet), as is a statement after a `-- lock-safe: <reason>` comment line.
 */
export function lockProblems(sql: string): LockProblem[] {
  const outside = runsOutsideTransaction(sql);
  // The exemption comment survives splitting as a token at the start of its statement.
  const marked = sql
    .split('\n')
    .map((line) => (EXEMPT.test(line.trim()) ? EXEMPT_TOKEN : line))
    .join('\n');
  const statements = splitSql(marked);
  const created = new Set<string>();
  for (const statement of statements) {
    const table = new RegExp(
      String.raw`^CREATE\s+(?:UNLOGGED\s+)?TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?(${IDENT})`,
      'i',
    ).exec(statement.replace(EXEMPT_TOKEN, '').trim());
    if (table) created.add(bareName(table[1]!));
  }
  const problems: LockProblem[] = [];
  for (const raw of statements) {
    if (raw.includes(EXEMPT_TOKEN)) continue;
    const statement = raw.replace(/\s+/g, ' ').trim();
    const upper = statement.toUpperCase();
    const refuse = (problem: string) => problems.push({ statement, problem });

    const index = new RegExp(
      String.raw`^CREATE\s+(UNIQUE\s+)?INDEX\s+(CONCURRENTLY\s+)?(IF\s+NOT\s+EXISTS\s+)?(?:${IDENT}\s+)?ON\s+(?:ONLY\s+)?(${IDENT})`,
      'i',
    ).exec(statement);
    if (index) {
      const concurrently = Boolean(index[2]);
      const onNewTable = created.has(bareName(index[4]!));
      if (!concurrently && !onNewTable) {
        refuse(
          'CREATE INDEX without CONCURRENTLY blocks every write to the table while it builds: build it CONCURRENTLY in a migration of its own (first line "-- migrate: no-transaction")',
        );
      }
      if (concurrently && !outside) {
        refuse(
          'CREATE INDEX CONCURRENTLY cannot run in a transaction: start the file with "-- migrate: no-transaction"',
        );
      }
      if (concurrently && !index[3]) {
        refuse(
          'a concurrent build may stop halfway: write CREATE INDEX CONCURRENTLY IF NOT EXISTS so the migration can run again',
        );
      }
      continue;
    }
    if (outside) {
      // Each statement commits on its own: only what is safe to run again belongs here.
      if (
        !/^(DROP INDEX CONCURRENTLY IF EXISTS|REINDEX (\(.*\) )?(INDEX|TABLE) CONCURRENTLY)\b/.test(upper)
      ) {
        refuse(
          'a migration outside a transaction holds only concurrent index builds and drops (each written to run again): put this in a migration of its own',
        );
      }
      continue;
    }
    if (/^DROP INDEX CONCURRENTLY\b/.test(upper)) {
      refuse(
        'DROP INDEX CONCURRENTLY cannot run in a transaction: start the file with "-- migrate: no-transaction"',
      );
      continue;
    }
    const alter = new RegExp(
      String.raw`^ALTER\s+TABLE\s+(?:IF\s+EXISTS\s+)?(?:ONLY\s+)?(${IDENT})\s+([\s\S]*)$`,
      'i',
    ).exec(statement);
    if (alter) {
      if (created.has(bareName(alter[1]!))) continue;
      for (const problem of alterTableProblems(actionsOf(alter[2]!))) refuse(problem);
      continue;
    }
    if (/^VACUUM\b.*\bFULL\b/.test(upper) || /^CLUSTER\b/.test(upper)) {
      refuse('this rewrites the table under an exclusive lock');
    } else if (/^LOCK\b/.test(upper)) {
      refuse('an explicit table lock stops the calls that read it');
    } else if (/^REINDEX\b/.test(upper) && !/\bCONCURRENTLY\b/.test(upper)) {
      refuse('REINDEX without CONCURRENTLY blocks writes while it builds');
    } else if (/^REFRESH MATERIALIZED VIEW\b/.test(upper) && !/\bCONCURRENTLY\b/.test(upper)) {
      refuse('REFRESH MATERIALIZED VIEW without CONCURRENTLY blocks every read of the view');
    }
  }
  return problems;
}
