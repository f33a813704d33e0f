import type * as GrowthBookSdk from '@growthbook/growthbook-react';
import type { GrowthBook } from '@growthbook/growthbook-react';
import { useSyncExternalStore } from 'react';
import { pushToDataLayer } from '../analytics/data-layer';
import { getExperimentUserId } from '../experiments';
import { getPageInit } from '../page-init';

/**
 * Feature flags through the GrowthBook SDK (spec: "a feature-flag service is initialised with an SDK key
 * from settings and a persistent random experiment user id kept in local storage"). The flag definitions
 * come from our content service (`GET {apiHost}/api/features/{sdkKey}`, GrowthBook's own API shape); the
 * SDK evaluates them in the browser, bucketing by the `experimentUserId` of local storage.
 *
 * The SDK (about 15 KB compressed) is started on demand, by the first page whose content runs an
 * experiment (the content loader calls initFeatureFlags and waits for it, bounded, with the page's code),
 * rather than at start-up: most pages run none, and none of their visitors should download it or wait
 * for it. Code that reads a flag outside content experiments calls initFeatureFlags first.
 */

export type FlagsStatus =
  /** Never started (tests, or a page rendered before start-up). */
  | 'idle'
  | 'loading'
  | 'ready'
  /** The definitions could not be loaded: every flag has its fallback. */
  | 'failed';

/** A page with experiments waits at most this long for the definitions before it renders. */
export const FLAGS_START_TIMEOUT_MS = 1500;

let growthbook: GrowthBook | undefined;
/** Values the server rendered the page with (decision 016), used until the SDK has its own. */
let initialValues: Record<string, string> = {};
let status: FlagsStatus = 'idle';
let version = 0;
let starting: Promise<FlagsStatus> | undefined;
const listeners = new Set<() => void>();

function changed(next?: FlagsStatus) {
  if (next) status = next;
  version += 1;
  for (const listener of listeners) listener();
}

export interface FeatureFlagOptions {
  sdkKey: string;
  apiHost: string;
  /** How long start-up waits (default FLAGS_START_TIMEOUT_MS). */
  timeoutMs?: number;
}

function fromPageInit(): FeatureFlagOptions {
  const { sdkKey, apiHost } = getPageInit().featureFlags;
  return { sdkKey, apiHost };
}

/**
 * Creates the SDK with the key and host from page init and the experiment user id, and loads the
 * definitions. Resolves with the status once loaded, failed or timed out (it keeps loading after a
 * time-out, and pages update when the definitions arrive). Never rejects; calling it again returns the
 * same start-up.
 */
export function initFeatureFlags(options: FeatureFlagOptions = fromPageInit()): Promise<FlagsStatus> {
  starting ??= (async () => {
    changed('loading');
    const loading = load(options);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<FlagsStatus>((resolve) => {
      timer = setTimeout(() => resolve(status), options.timeoutMs ?? FLAGS_START_TIMEOUT_MS);
    });
    const first = await Promise.race([loading, timeout]);
    clearTimeout(timer);
    return first;
  })();
  return starting;
}

/** Longest the SDK waits for the definitions (after start-up has stopped waiting, pages update on arrival). */
const DEFINITIONS_TIMEOUT_MS = 10_000;

async function load(options: FeatureFlagOptions): Promise<FlagsStatus> {
  const failed = (what: string) => {
    console.warn(`${what}; using the default of every flag`);
    changed('failed');
    return status;
  };
  let sdk: typeof GrowthBookSdk;
  try {
    // Its own chunk, fetched while the page's code loads.
    sdk = await import('@growthbook/growthbook-react');
  } catch {
    return failed('The feature-flag SDK could not be loaded');
  }
  // The SDK binds fetch when first imported; look it up per call instead (tests and polyfills swap it).
  sdk.setPolyfills({ fetch: (...args: Parameters<typeof fetch>) => globalThis.fetch(...args) });
  // No copy of the definitions in local storage (every stored key is listed in session/storage-keys.ts), and
  // no streaming connection: definitions change with a release of content, and a page load picks them up.
  sdk.configureCache({ disableCache: true, backgroundSync: false });
  const gb = new sdk.GrowthBook({
    apiHost: options.apiHost,
    clientKey: options.sdkKey,
    attributes: { id: getExperimentUserId() },
    // Which variant a visitor saw, for analysis beside the page views. Ids only, nothing personal.
    trackingCallback: (experiment, result) => {
      pushToDataLayer({
        event: 'experimentViewed',
        experimentId: experiment.key,
        variationId: String(result.key),
      });
    },
  });
  gb.setRenderer(() => changed());
  growthbook = gb;
  try {
    const result = await gb.init({ timeout: DEFINITIONS_TIMEOUT_MS });
    if (!result.success) return failed('The feature-flag definitions could not be loaded');
  } catch {
    return failed('The feature-flag definitions could not be loaded');
  }
  changed('ready');
  return status;
}

export function getFlagsStatus(): FlagsStatus {
  return status;
}

/** The SDK instance once started (undefined before). */
export function getGrowthBook(): GrowthBook | undefined {
  return growthbook;
}

/**
 * The flag values a server-rendered page was rendered with (the server evaluates the same definitions for
 * the same experiment user id): the page hydrates with them, and they hold until the SDK is ready.
 */
export function setInitialFeatureValues(values: Record<string, string>): void {
  initialValues = values;
}

/** Whether the server chose this flag's value for the page being shown. */
export function hasInitialFeatureValue(key: string): boolean {
  return Object.hasOwn(initialValues, key);
}

/** A flag's value, or the fallback when flags are not loaded or the flag is not defined. */
export function getFeatureValue<T extends string | number | boolean | null>(key: string, fallback: T): T {
  if (!growthbook || status !== 'ready')
    return hasInitialFeatureValue(key) ? (initialValues[key] as T) : fallback;
  return growthbook.getFeatureValue(key, fallback as never) as T;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Re-renders when flags load or change; returns the load status. */
export function useFeatureFlagsStatus(): FlagsStatus {
  useSyncExternalStore(
    subscribe,
    () => version,
    () => version,
  );
  return status;
}

/** A flag's value in a component, updated when the definitions arrive. */
export function useFeatureValue<T extends string | number | boolean | null>(key: string, fallback: T): T {
  useSyncExternalStore(
    subscribe,
    () => version,
    () => version,
  );
  return getFeatureValue(key, fallback);
}

/** Forgets the SDK (tests). */
export function resetFeatureFlags(): void {
  growthbook?.destroy();
  growthbook = undefined;
  starting = undefined;
  changed('idle');
}
