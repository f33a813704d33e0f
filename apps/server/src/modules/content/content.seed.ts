import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { z } from 'zod/mini';
import {
  featureDefinitions,
  modalContent,
  navigation,
  normaliseContentPath,
  pageContent,
  siteSettings,
  type FeatureDefinitions,
  type Navigation,
  type PageContent,
  type SiteSettings,
} from '@portal/contracts/content';
import { repoRoot } from '../../config';
import type { Queryable } from '../../platform/db';
import { deleteContentExcept, upsertContent, type ContentKind } from './content.repository';

/** Where the content files live: `content/` at the repository root. */
export const defaultContentDir = path.join(repoRoot, 'content');

/** Site paths the SPA routes itself (no content page behind them). */
const spaOnlyPaths = new Set(['/']);

/** Content media are files in `content/media`, served at this path by the content service. */
export const mediaPathPrefix = '/api/v1/content/media/';

/** The five modal files merged into site settings, by file name. */
export const modalKeys = [
  'logOutModalWindowBlock',
  'welcomeModalWindowBlock',
  'welcomeBackWindowBlock',
  'gwInterstitialModalWindowBlock',
  'gwInterstitialBespokeModalWindowBlock',
] as const;

/** Everything in `content/`, validated. */
export interface ContentBundle {
  settings: SiteSettings;
  navigation: Navigation;
  pages: PageContent[];
  featureFlags: FeatureDefinitions;
}

/** A content file that does not validate: names the file and the field, for the editor. */
export class ContentFileError extends Error {
  constructor(readonly problems: string[]) {
    super(`Content files are not valid:\n  - ${problems.join('\n  - ')}`);
  }
}

const kebabToCamel = (name: string) => name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

async function readJson(file: string, problems: string[]): Promise<unknown> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as unknown;
  } catch (error) {
    problems.push(`${path.basename(file)}: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  }
}

function check<S extends z.ZodMiniType>(schema: S, value: unknown, where: string, problems: string[]) {
  const result = schema.safeParse(value);
  if (result.success) return result.data as z.infer<S>;
  for (const issue of result.error.issues.slice(0, 10)) {
    problems.push(`${where}: ${issue.path.map(String).join('.') || '(file)'}: ${issue.message}`);
  }
  return undefined;
}

/**
 * Reads and validates every content file: each against its contract schema, then the whole set for
 * consistency (unique page URLs, links to pages that exist, experiments that match their flags, media
 * files present). Throws ContentFileError listing every problem.
 */
export async function loadContentFiles(dir: string = defaultContentDir): Promise<ContentBundle> {
  const problems: string[] = [];

  const rawSettings = await readJson(path.join(dir, 'site-settings.json'), problems);
  const modalsDir = path.join(dir, 'modals');
  const modalFiles = existsSync(modalsDir)
    ? (await readdir(modalsDir)).filter((f) => f.endsWith('.json'))
    : [];
  const modals: Record<string, unknown> = {};
  for (const file of modalFiles.sort()) {
    const key = kebabToCamel(file.replace(/\.json$/, ''));
    if (!(modalKeys as readonly string[]).includes(key)) {
      problems.push(`modals/${file}: not one of the modal windows (${modalKeys.join(', ')})`);
      continue;
    }
    const modal = check(
      modalContent,
      await readJson(path.join(modalsDir, file), problems),
      `modals/${file}`,
      problems,
    );
    if (modal) modals[key] = modal;
  }
  const settings =
    rawSettings && typeof rawSettings === 'object'
      ? check(siteSettings, { ...rawSettings, ...modals }, 'site-settings.json (with modals/)', problems)
      : undefined;

  const nav = check(
    navigation,
    await readJson(path.join(dir, 'navigation.json'), problems),
    'navigation.json',
    problems,
  );
  const flags = check(
    featureDefinitions,
    await readJson(path.join(dir, 'feature-flags.json'), problems),
    'feature-flags.json',
    problems,
  );

  const pagesDir = path.join(dir, 'pages');
  const pageFiles = existsSync(pagesDir)
    ? (await readdir(pagesDir)).filter((f) => f.endsWith('.json')).sort()
    : [];
  const pages: PageContent[] = [];
  const fileOfUrl = new Map<string, string>();
  const fileOfId = new Map<string, string>();
  for (const file of pageFiles) {
    const page = check(
      pageContent,
      await readJson(path.join(pagesDir, file), problems),
      `pages/${file}`,
      problems,
    );
    if (!page) continue;
    if (normaliseContentPath(page.url) !== page.url) {
      problems.push(`pages/${file}: url ${page.url} must be written as ${normaliseContentPath(page.url)}`);
    }
    const sameUrl = fileOfUrl.get(page.url);
    if (sameUrl) problems.push(`pages/${file}: url ${page.url} is also used by pages/${sameUrl}`);
    const sameId = fileOfId.get(page.id);
    if (sameId) problems.push(`pages/${file}: id ${page.id} is also used by pages/${sameId}`);
    fileOfUrl.set(page.url, file);
    fileOfId.set(page.id, file);
    pages.push(page);
  }
  if (pageFiles.length === 0) problems.push('pages/: there are no pages');

  if (settings && nav && flags && problems.length === 0) {
    problems.push(...crossCheck({ settings, navigation: nav, pages, featureFlags: flags }, dir));
  }
  if (problems.length > 0 || !settings || !nav || !flags) throw new ContentFileError(problems);
  return { settings, navigation: nav, pages, featureFlags: flags };
}

/** Every string in a value, with the key it sits under. */
function* strings(value: unknown, key = ''): Generator<[string, string]> {
  if (typeof value === 'string') yield [key, value];
  else if (Array.isArray(value)) for (const v of value) yield* strings(v, key);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) yield* strings(v, k);
  }
}

const linkKeys = new Set([
  'link',
  'url',
  'target',
  'successUrl',
  'nextUrl',
  'notFoundUrl',
  'src',
  'loginPage',
  'accountRootPage',
  'dashboardPage',
  'maintenancePage',
  'errorPage',
  'policy',
  'cover',
  'documents',
  'bills',
]);

/** Site paths a piece of content links to: link-like fields and href attributes in rich text. */
function sitePaths(value: unknown): string[] {
  const found: string[] = [];
  for (const [key, text] of strings(value)) {
    if (linkKeys.has(key) && text.startsWith('/')) found.push(text);
    for (const m of text.matchAll(/href\s*=\s*"(\/[^"]*)"/g)) found.push(m[1]!);
  }
  return found;
}

/** Consistency of the whole set; returns the problems found. */
export function crossCheck(bundle: ContentBundle, dir: string): string[] {
  const problems: string[] = [];
  const urls = new Set(bundle.pages.map((p) => p.url));
  const checkLinks = (value: unknown, where: string) => {
    for (const link of sitePaths(value)) {
      if (link.startsWith(mediaPathPrefix)) {
        const name = link.slice(mediaPathPrefix.length);
        if (!mediaFileName.test(name) || !existsSync(path.join(dir, 'media', name))) {
          problems.push(`${where}: media file ${link} is not in content/media`);
        }
        continue;
      }
      const target = normaliseContentPath(link);
      if (!urls.has(target) && !spaOnlyPaths.has(target))
        problems.push(`${where}: links to ${link}, which has no page`);
    }
  };

  checkLinks(bundle.settings, 'site-settings.json');
  checkLinks(bundle.navigation, 'navigation.json');
  for (const page of bundle.pages) {
    checkLinks(page, `page ${page.url}`);
    for (const exp of page.experiments) {
      const flag = bundle.featureFlags.features[exp.key];
      if (!flag) {
        problems.push(`page ${page.url}: experiment ${exp.key} has no flag in feature-flags.json`);
        continue;
      }
      const rule = flag.rules?.find((r) => Array.isArray(r.variations));
      const ids = exp.variants.map((v) => v.id);
      if (!rule || JSON.stringify(rule.variations) !== JSON.stringify(ids)) {
        problems.push(
          `page ${page.url}: experiment ${exp.key} variants ${ids.join(', ')} do not match the flag's variations`,
        );
      } else if (
        rule.weights &&
        JSON.stringify(rule.weights) !== JSON.stringify(exp.variants.map((v) => v.weight))
      ) {
        problems.push(`page ${page.url}: experiment ${exp.key} weights do not match the flag's weights`);
      }
      if (!ids.includes(String(flag.defaultValue))) {
        problems.push(
          `page ${page.url}: experiment ${exp.key} has no variant for the flag's default ${String(flag.defaultValue)}`,
        );
      }
    }
  }
  const ids = new Set<string>();
  for (const item of [...bundle.navigation.header, ...bundle.navigation.footer]) {
    for (const i of [item, ...(item.children ?? [])]) {
      if (ids.has(i.id)) problems.push(`navigation.json: id ${i.id} is used twice`);
      ids.add(i.id);
    }
  }
  return problems;
}

export const mediaFileName = /^[a-z0-9][a-z0-9-]*\.(svg|png|jpg|webp|pdf)$/;

/** A stable hash of a validated item, so unchanged content is not rewritten. */
function contentHash(body: unknown): string {
  return createHash('sha256').update(JSON.stringify(body)).digest('base64url').slice(0, 32);
}

export interface SeedResult {
  pages: number;
  written: number;
  removed: number;
}

/**
 * Writes a validated bundle into the store through `tx`: upserts what changed and removes pages that
 * are no longer in the bundle. Run it inside a transaction.
 */
export async function writeContent(tx: Queryable, bundle: ContentBundle, now: Date): Promise<SeedResult> {
  let written = 0;
  const put = async (kind: ContentKind, key: string, body: unknown) => {
    if (await upsertContent(tx, { kind, key, body, contentHash: contentHash(body), now })) written++;
  };
  await put('settings', 'SiteSettings', bundle.settings);
  await put('navigation', 'main', bundle.navigation);
  await put('feature_flags', 'default', bundle.featureFlags);
  for (const page of bundle.pages) await put('page', page.url, page);
  const removed = await deleteContentExcept(
    tx,
    'page',
    bundle.pages.map((p) => p.url),
  );
  return { pages: bundle.pages.length, written, removed };
}
