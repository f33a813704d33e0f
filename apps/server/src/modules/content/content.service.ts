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
import { applySchedule } from './content-items';
import { listContent, type ContentRow } from './content.repository';
import { mediaPathPrefix, type ContentBundle, type SeedResult } from './content.seed';
import { seedContent } from './editorial';
import { CONTENT_CHANNEL, currentRevision } from './editorial.repository';

/**
 * How long an instance reuses what it read from the store at most. A publish on any instance reaches it
 * sooner: announced as it commits (PostgreSQL's LISTEN), and the store's revision is read every
 * CONTENT_CHECK_MS in case an announcement was missed (issue 42: live everywhere within 5 seconds).
 */
export const CONTENT_CACHE_MS = 30_000;
/** How often each instance reads the store's revision (one row). */
const CONTENT_CHECK_MS = 2_000;

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
  /**
   * Follows publishes made on any instance: listens for their announcement and reads the store's revision
   * every CONTENT_CHECK_MS, forgetting the cached content when it moved on. Answers a function that stops.
   */
  followPublishes(): Promise<() => Promise<void>>;
  /**
   * The public content of a page as it would be with `bundle` published (a preview of a draft): the
   * settings, the navigation and the page at `path`, prepared as the store's are. Null: no page there.
   */
  publicContentOf(
    bundle: ContentBundle,
    path: string,
  ): Promise<{ settings: SiteSettings; navigation: Navigation; page: PageContent } | null>;
}

interface Snapshot {
  loadedAt: number;
  /** The store's revision when it was read. */
  revision: number;
  /** When an operator's schedule changes what it says (the alert's window, maintenance's end). */
  changesAt: number | null;
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
    const revision = await currentRevision(ctx.db);
    return build(await listContent(ctx.db), revision);
  }

  function build(rows: Pick<ContentRow, 'kind' | 'body'>[], revision: number): Snapshot {
    const nowMs = ctx.clock.now().getTime();
    const one = (kind: string) => rows.find((r) => r.kind === kind)?.body;
    const stored = one('settings');
    const scheduled =
      stored && typeof stored === 'object'
        ? applySchedule(stored as Record<string, unknown>, nowMs)
        : { settings: stored, nextChangeMs: null };

    const phone = phoneOf(scheduled.settings);
    const filled = (body: unknown) => fillPhone(rewriteMedia(body, mediaBase), phone);
    const settingsParsed = siteSettings.safeParse(filled(scheduled.settings));
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
      loadedAt: nowMs,
      revision,
      changesAt: scheduled.nextChangeMs,
      settings: prepare([{ ...settings, isErrorContext: false }]),
      settingsErrorContext: prepare([{ ...settings, isErrorContext: true }]),
      navigation: prepare(navParsed.data),
      pages,
      featureDefinitions: prepare(flagsParsed.data),
    };
  }

  async function snapshot(): Promise<Snapshot> {
    const nowMs = ctx.clock.now().getTime();
    if (
      cached &&
      nowMs - cached.loadedAt < CONTENT_CACHE_MS &&
      (cached.changesAt === null || nowMs < cached.changesAt)
    )
      return cached;
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
    async followPublishes() {
      // Forgets the content when the store has moved past what this instance holds.
      const seen = (revision: number) => {
        if (cached && revision !== cached.revision) service.invalidate();
      };
      const unlisten = await ctx.db.listen?.(
        CONTENT_CHANNEL,
        (payload) => seen(Number(payload)),
        () => service.invalidate(),
      );
      let checking = false;
      const timer = setInterval(() => {
        if (checking || !cached) return;
        checking = true;
        currentRevision(ctx.db)
          .then(seen)
          // The store unreadable for a moment: the next check, or the cache's own end, catches up.
          .catch(() => undefined)
          .finally(() => {
            checking = false;
          });
      }, CONTENT_CHECK_MS);
      timer.unref();
      return async () => {
        clearInterval(timer);
        await unlisten?.();
      };
    },
    async publicContentOf(bundle, path) {
      const rows = [
        { kind: 'settings', body: bundle.settings },
        { kind: 'navigation', body: bundle.navigation },
        { kind: 'feature_flags', body: bundle.featureFlags },
        ...bundle.pages.map((page) => ({ kind: 'page', body: page })),
      ] as Pick<ContentRow, 'kind' | 'body'>[];
      const snap = build(rows, -1);
      const page = snap.pages.get(normaliseContentPath(path))?.value;
      const [settings] = snap.settings.value;
      return page && settings ? { settings, navigation: snap.navigation.value, page } : null;
    },
  };
  return service;
}
