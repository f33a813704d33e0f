import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { MaintenanceItem, ServiceAlertItem } from '@portal/contracts/staff-content';
import type { Queryable } from '../../platform/db';
import {
  featureDefinitions,
  modalContent,
  navigation,
  pageContent,
  siteSettings,
} from '@portal/contracts/content';
import { camelToKebab, sameBody } from './content-items';
import { modalKeys } from './content.seed';
import { latestVersions } from './editorial.repository';

/*
 * `npm run content:export` (issue 42): the published content written back to the files in content/, so an
 * edit made in the console and a change made in version control can be brought together there. The
 * operators' schedules (the alert's window, maintenance's end) are switches of the moment and are not
 * written; maintenance mode and the alert's visibility are, as they are now.
 */

/**
 * `value` with its keys in the order `template` has them (the file as it is), recursively, and keys the
 * template lacks after them: the database keeps JSON with its keys reordered, and an export should change
 * only what changed. A key the file leaves out whose value is what the schema fills in for it (`defaulted`:
 * the file as the schema reads it) stays left out.
 */
function orderLike(value: unknown, template: unknown, defaulted: unknown): unknown {
  const at = (v: unknown, k: string | number): unknown =>
    v && typeof v === 'object' ? (v as Record<string | number, unknown>)[k] : undefined;
  if (Array.isArray(value)) return value.map((v, i) => orderLike(v, at(template, i), at(defaulted, i)));
  if (!value || typeof value !== 'object') return value;
  const own = value as Record<string, unknown>;
  const shape = template && typeof template === 'object' && !Array.isArray(template) ? template : {};
  const onlyDefault = (k: string) => at(defaulted, k) !== undefined && sameBody(at(defaulted, k), own[k]);
  const keys = [
    ...Object.keys(shape).filter((k) => k in own),
    ...Object.keys(own).filter((k) => !(k in shape) && !onlyDefault(k)),
  ];
  return Object.fromEntries(keys.map((k) => [k, orderLike(own[k], at(shape, k), at(defaulted, k))]));
}

/** The file as the content schemas read it (their defaults filled in), to tell a default from a change. */
function parsedAs(rel: string, template: unknown, value: unknown): unknown {
  if (!template || typeof template !== 'object') return undefined;
  if (rel === 'site-settings.json') {
    const modals = Object.fromEntries(modalKeys.map((k) => [k, at(value, k) ?? { id: k, heading: k }]));
    return siteSettings.safeParse({ ...modals, ...template }).data;
  }
  const schema =
    rel === 'navigation.json'
      ? navigation
      : rel === 'feature-flags.json'
        ? featureDefinitions
        : rel.startsWith('modals')
          ? modalContent
          : pageContent;
  return schema.safeParse(template).data;
}

const at = (v: unknown, k: string): unknown =>
  v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined;

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
    const file = path.join(dir, rel);
    const before = await readFile(file, 'utf8').catch(() => undefined);
    let template: unknown;
    try {
      template = before === undefined ? undefined : (JSON.parse(before) as unknown);
    } catch {
      template = undefined;
    }
    const defaulted = parsedAs(rel, template, value);
    const asRead =
      rel === 'site-settings.json' && defaulted && typeof defaulted === 'object'
        ? Object.fromEntries(
            Object.entries(defaulted).filter(
              ([k]) => !(modalKeys as readonly string[]).includes(k) && k !== 'isErrorContext',
            ),
          )
        : defaulted;
    // The file already says what is published (however it is written): it is left as it is.
    if (asRead !== undefined && sameBody(asRead, value)) return;
    const text = await format(`${JSON.stringify(orderLike(value, template, defaulted), null, 2)}\n`);
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
