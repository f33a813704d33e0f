/**
 * `npm run content:export`: writes the content published in the staff console back to the files in
 * content/ (issue 42), formatted as the repository formats them, and lists the files it changed: review
 * them and commit, so the files and the published content agree again (the next start then reports no
 * difference). Safe while the portal serves on PostgreSQL; on the embedded database, stop the portal first.
 */
import path from 'node:path';
import { exportPublishedContent } from './modules/content/content-export';
import { defaultContentDir } from './modules/content/content.seed';
import { loadCliConfig, openCliDb, refuse } from './platform/cli-db';
import { migrate } from './platform/db';

async function main() {
  const config = loadCliConfig();
  const dir = process.argv[2] ?? defaultContentDir;
  const { db, stop } = await openCliDb(config, refuse);
  try {
    await migrate(db);
    const prettier = await import('prettier').catch(() => undefined);
    const written = await exportPublishedContent(db, dir, async (json) =>
      prettier
        ? // The repository's own formatting (its Prettier settings), wherever the files are written.
          prettier.format(json, {
            ...(await prettier.resolveConfig(path.join(defaultContentDir, 'site-settings.json'))),
            parser: 'json',
          })
        : json,
    );
    console.log(
      written.length === 0
        ? `The files in ${dir} already say what is published.`
        : `Wrote ${written.length} file(s) in ${dir}:\n  ${written.join('\n  ')}`,
    );
  } finally {
    await stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
