import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { MaintenanceItem, ServiceAlertItem } from '@portal/contracts/staff-content';
import type { Queryable } from '../../platform/db';
import { camelToKebab } from './content-items';
import { modalKeys } from './content.seed';
import { latestVersions } from './editorial.repository';

/*
 * `npm run content:export` (issue 42): the published content written back to the files in content/, so an
 * edit made in the console and a change made in version control can be brought together there. The
 * operators' schedules (the alert's window, maintenance's end) are switches of the moment and are not
 * written; maintenance mode and the alert's visibility are, as they are now.
 */

/** Writes every published item to its file under `dir`; answers the files written (relative paths). */
export async function exportPublishedContent(
  db: Queryable,
  dir: string,
  format: (json: string) => Promise<string> = async (json) => json,
): Promise<string[]> {
  const latest = await latestVersions(db);
  const body = (id: string) => latest.get(id)?.body;
  const written: string[] = [];
  const write = async (rel: string, value: unknown) => {
    const text = await format(`${JSON.stringify(value, null, 2)}\n`);
    const file = path.join(dir, rel);
    const before = await readFile(file, 'utf8').catch(() => undefined);
    if (before === text) return;
    await writeFile(file, text);
    written.push(rel);
  };

  const alert = body('service-alert') as ServiceAlertItem;
  const maintenance = body('maintenance') as MaintenanceItem;
  await write('site-settings.json', {
    ...(body('site-settings') as object),
    serviceAlert: { visible: alert.visible, title: alert.title, message: alert.message },
    isMaintenanceMode: maintenance.on,
  });
  for (const key of modalKeys) {
    const name = camelToKebab(key);
    await write(path.join('modals', `${name}.json`), body(`modal-${name}`));
  }
  await write('navigation.json', body('navigation'));
  await write('feature-flags.json', body('feature-flags'));

  // A page goes back to the file that holds its address; a page only the console has, to <id>.json.
  const fileOfUrl = new Map<string, string>();
  for (const file of (await readdir(path.join(dir, 'pages'))).filter((f) => f.endsWith('.json'))) {
    const page = JSON.parse(await readFile(path.join(dir, 'pages', file), 'utf8')) as { url?: string };
    if (page.url) fileOfUrl.set(page.url, file);
  }
  for (const [id, v] of latest) {
    if (!id.startsWith('page.')) continue;
    const page = v.body as { url: string; id: string };
    await write(path.join('pages', fileOfUrl.get(page.url) ?? `${page.id}.json`), page);
  }
  return written;
}
