import path from 'node:path';
import { ConfigError, loadConfig, type Config } from '../config';
import { lockDataDir } from './data-dir-lock';
import { isPgliteDataDir, openDb, type Db } from './db';

/** Ends a command-line tool with a message and exit status 2 (bad settings or arguments). */
export function refuse(message: string): never {
  console.error(message);
  process.exit(2);
}

/** A command-line tool's settings from the environment; settings that are not valid end it (refuse). */
export function loadCliConfig(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) refuse(error.message);
    throw error;
  }
}

/**
 * The database a command-line tool works on: PostgreSQL (DATABASE_URL), or the embedded one in DATA_DIR
 * while no portal uses it (the data directory's lock says). `stop` closes it and releases the lock.
 * `refuse` ends the command with a message (no embedded database yet, or the portal holds it).
 */
export async function openCliDb(
  config: Config,
  refuse: (message: string) => never,
): Promise<{ db: Db; stop: () => Promise<void> }> {
  if (config.database.kind !== 'pglite') {
    const db = await openDb({ ...config.database, max: 2 });
    return { db, stop: () => db.close().catch(() => undefined) };
  }
  const dataDir = config.database.dataDir ?? path.join(config.dataDir, 'pglite');
  const release = lockDataDir(config.dataDir);
  if (!isPgliteDataDir(dataDir)) {
    release();
    refuse(
      `There is no embedded database in ${dataDir} yet: start the portal once (npm start) to create it.`,
    );
  }
  const db = await openDb({ kind: 'pglite', dataDir });
  return {
    db,
    stop: async () => {
      await db.close().catch(() => undefined);
      release();
    },
  };
}
