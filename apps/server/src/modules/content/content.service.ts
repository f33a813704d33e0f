import {
  featureDefinitions,
  navigation,
  normaliseContentPath,
  pageContent,
  siteSettings,
  type FeatureDefinitions,
  type Navigation,
  type PageContent,
  type SiteSettings,
} from '@portal/contracts/content';
import { mountPrefix } from '../../config';
import { HttpError } from '../../platform/errors';
import type { PlatformContext } from '../../platform/module';
import { PrecompressedBody } from '../../platform/precompressed';
import { listContent } from './content.repository';
import { mediaPathPrefix, seedContent, type SeedResult } from './content.seed';

/** How long an instance reuses what it read from the store; a seed on this instance clears it at once. */
export const CONTENT_CACHE_MS = 30_000;

/** A ready HTTP answer: the value, and its JSON with compressed copies and ETag, made once per cache load. */
export interface PreparedBody<T> {
  value: T;
  body: PrecompressedBody;
}

export interface ContentService {
  /** The site settings; with errorContext, the variant served for `error=true` (isErrorContext set). */
  getSiteSettings(options?: { errorContext?: boolean }): Promise<SiteSettings>;
  /** The page at a relative URL (normalised: query, fragment and trailing slash dropped, any case). */
  getPage(relativeUrl: string): Promise<PageContent | undefined>;
  getNavigation(): Promise<Navigation>;
  /** Flag definitions for an SDK key; undefined when the key is not ours. */
  getFeatureDefinitions(clientKey: string): Promise<FeatureDefinitions | undefined>;
  /** The same, prepared for HTTP (JSON text and ETag). */
  prepared: {
    siteSettings(errorContext: boolean): Promise<PreparedBody<SiteSettings[]>>;
    page(relativeUrl: string): Promise<PreparedBody<PageContent> | undefined>;
    navigation(): Promise<PreparedBody<Navigation>>;
    featureDefinitions(clientKey: string): Promise<PreparedBody<FeatureDefinitions> | undefined>;
  };
  /** Reloads `content/` into the store and clears this instance's cache. */
  seed(): Promise<SeedResult>;
  /** Forgets the cached content so the next read comes from the store. */
  invalidate(): void;
}

interface Snapshot {
  loadedAt: number;
  settings: PreparedBody<SiteSettings[]>;
  settingsErrorContext: PreparedBody<SiteSettings[]>;
  navigation: PreparedBody<Navigation>;
  pages: Map<string, PreparedBody<PageContent>>;
  featureDefinitions: PreparedBody<FeatureDefinitions>;
}

const unavailable = () =>
  new HttpError(
    503,
    'CONTENT_UNAVAILABLE',
    'Site content is not available at the moment. Please try again later.',
  );

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

function prepare<T>(value: T): PreparedBody<T> {
  return { value: deepFreeze(value), body: new PrecompressedBody(JSON.stringify(value)) };
}

/** Rewrites content media paths to where this service is reachable from the browser. */
function rewriteMedia(value: unknown, mediaBase: string): unknown {
  if (typeof value === 'string') {
    return value.startsWith(mediaPathPrefix) ? mediaBase + value : value;
  }
  if (Array.isArray(value)) return value.map((v) => rewriteMedia(v, mediaBase));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rewriteMedia(v, mediaBase)]));
  }
  return value;
}

/**
 * The freephone number wherever content writes `{phone}` (issue 38): texts say `{phone}` and link
 * `tel:{phone}`, so the one number in the site settings (`infinityPhoneTracking`) is the only place it is
 * written. Filled here, once per load, so every reader (the SPA, the pages the server renders, the
 * content inlined into signed-in pages) gets the number; a `{phone}` a text means otherwise is not
 * content's to write (a customer's own number is `{number}`, filled by the portal).
 */
function fillPhone(value: unknown, phone: string): unknown {
  if (typeof value === 'string') {
    if (!value.includes('{phone}')) return value;
    return value
      .replaceAll('tel:{phone}', `tel:${phone.replace(/[^\d+]/g, '')}`)
      .replaceAll('{phone}', phone);
  }
  if (Array.isArray(value)) return value.map((v) => fillPhone(v, phone));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fillPhone(v, phone)]));
  }
  return value;
}

/** The site's freephone number in the stored settings, before they are checked. */
function phoneOf(settings: unknown): string {
  const phone = (settings as { infinityPhoneTracking?: unknown } | undefined)?.infinityPhoneTracking;
  return typeof phone === 'string' ? phone : '';
}

/**
 * Site settings, navigation and pages from the content store. The whole store is read at once and kept
 * for CONTENT_CACHE_MS (by the injected clock), so lookups of unknown URLs never reach the database, and
 * every item is checked against its contract as it is read: a row that no longer validates is treated as
 * missing (a page) or as the content being unavailable (settings, navigation).
 */
export function createContentService(ctx: PlatformContext): ContentService {
  const contentBase = ctx.config.baseUrls.content;
  // Same origin as the SPA: a path is enough (and keeps the CSP's img-src 'self'); otherwise absolute.
  const mediaBase =
    new URL(contentBase).origin === new URL(ctx.config.publicUrl).origin
      ? mountPrefix(contentBase)
      : contentBase;

  let cached: Snapshot | undefined;
  let loading: Promise<Snapshot> | undefined;
  let generation = 0;

  async function load(): Promise<Snapshot> {
    const rows = await listContent(ctx.db);
    const one = (kind: string) => rows.find((r) => r.kind === kind)?.body;

    const phone = phoneOf(one('settings'));
    const filled = (body: unknown) => fillPhone(rewriteMedia(body, mediaBase), phone);
    const settingsParsed = siteSettings.safeParse(filled(one('settings')));
    const navParsed = navigation.safeParse(filled(one('navigation')));
    const flagsParsed = featureDefinitions.safeParse(one('feature_flags'));
    if (!settingsParsed.success || !navParsed.success || !flagsParsed.success) throw unavailable();

    // The SDK key is deployment configuration, not content.
    const settings: SiteSettings = { ...settingsParsed.data, featureFlagKey: ctx.config.featureFlagSdkKey };
    const pages = new Map<string, PreparedBody<PageContent>>();
    for (const row of rows) {
      if (row.kind !== 'page') continue;
      const parsed = pageContent.safeParse(filled(row.body));
      if (parsed.success) pages.set(normaliseContentPath(parsed.data.url), prepare(parsed.data));
    }
    return {
      loadedAt: ctx.clock.now().getTime(),
      settings: prepare([{ ...settings, isErrorContext: false }]),
      settingsErrorContext: prepare([{ ...settings, isErrorContext: true }]),
      navigation: prepare(navParsed.data),
      pages,
      featureDefinitions: prepare(flagsParsed.data),
    };
  }

  async function snapshot(): Promise<Snapshot> {
    if (cached && ctx.clock.now().getTime() - cached.loadedAt < CONTENT_CACHE_MS) return cached;
    if (!loading) {
      const startedIn = generation;
      const current: Promise<Snapshot> = load()
        .then((s) => {
          // A seed that finished while this load ran has made it stale: do not keep it.
          if (startedIn === generation) cached = s;
          return s;
        })
        .finally(() => {
          if (loading === current) loading = undefined;
        });
      loading = current;
    }
    return loading;
  }

  const prepared: ContentService['prepared'] = {
    async siteSettings(errorContext) {
      const s = await snapshot();
      return errorContext ? s.settingsErrorContext : s.settings;
    },
    async page(relativeUrl) {
      return (await snapshot()).pages.get(normaliseContentPath(relativeUrl));
    },
    async navigation() {
      return (await snapshot()).navigation;
    },
    async featureDefinitions(clientKey) {
      if (clientKey !== ctx.config.featureFlagSdkKey) return undefined;
      return (await snapshot()).featureDefinitions;
    },
  };

  const service: ContentService = {
    async getSiteSettings(options = {}) {
      const [settings] = (await prepared.siteSettings(options.errorContext ?? false)).value;
      if (!settings) throw unavailable();
      return settings;
    },
    async getPage(relativeUrl) {
      return (await prepared.page(relativeUrl))?.value;
    },
    async getNavigation() {
      return (await prepared.navigation()).value;
    },
    async getFeatureDefinitions(clientKey) {
      return (await prepared.featureDefinitions(clientKey))?.value;
    },
    prepared,
    async seed() {
      const result = await seedContent(ctx);
      service.invalidate();
      return result;
    },
    invalidate() {
      generation++;
      cached = undefined;
      loading = undefined;
    },
  };
  return service;
}
