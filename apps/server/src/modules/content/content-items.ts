import type { z } from 'zod/mini';
import {
  featureDefinitions,
  modalContent,
  navigation,
  pageContent,
  siteSettings,
  type FeatureDefinitions,
  type Navigation,
  type PageContent,
  type SiteSettings,
} from '@portal/contracts/content';
import {
  maintenanceItem,
  serviceAlertItem,
  type ContentChange,
  type ContentItemKind,
  type MaintenanceItem,
  type ServiceAlertItem,
} from '@portal/contracts/staff-content';
import { HttpError } from '../../platform/errors';
import { modalKeys, type ContentBundle } from './content.seed';

/*
 * Content as items (issue 42): what an editor changes and a publisher publishes one at a time. The files
 * in content/ split into items (the site settings, the service alert, maintenance mode, each modal window,
 * the navigation, each page, the feature flags), and the published items assemble into what the content
 * service serves (content_item rows), with the operators' schedules applied as they are read.
 */

type ModalKey = (typeof modalKeys)[number];

export const camelToKebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
const modalItemId = (key: ModalKey) => `modal-${camelToKebab(key)}`;
const modalKeyOf = (itemId: string): ModalKey | undefined =>
  modalKeys.find((key) => modalItemId(key) === itemId);
const pageItemId = (page: { id: string }) => `page.${page.id}`;

/** The key the operators' schedules travel under in the stored settings; taken off before serving. */
const SCHEDULE_KEY = 'operationsSchedule';
interface OperationsSchedule {
  maintenanceEndsAt: string | null;
  alertStartsAt: string | null;
  alertEndsAt: string | null;
}

/** The settings' own fields: neither a modal, nor the service alert, nor maintenance mode. */
const notSettingsOwn = new Set<string>([...modalKeys, 'serviceAlert', 'isMaintenanceMode', 'isErrorContext']);

export interface Item {
  id: string;
  kind: ContentItemKind;
  body: unknown;
}

/** The items of a bundle (as the files make it). */
export function itemsOf(bundle: ContentBundle): Map<string, Item> {
  const items = new Map<string, Item>();
  const put = (id: string, kind: ContentItemKind, body: unknown) => items.set(id, { id, kind, body });
  const settings = bundle.settings as Record<string, unknown>;
  put(
    'site-settings',
    'site-settings',
    Object.fromEntries(Object.entries(settings).filter(([key]) => !notSettingsOwn.has(key))),
  );
  const alert = bundle.settings.serviceAlert;
  put('service-alert', 'service-alert', {
    visible: alert.visible,
    title: alert.title,
    message: alert.message,
  });
  put('maintenance', 'maintenance', { on: bundle.settings.isMaintenanceMode, endsAt: null });
  for (const key of modalKeys) put(modalItemId(key), 'modal', settings[key]);
  put('navigation', 'navigation', bundle.navigation);
  put('feature-flags', 'feature-flags', bundle.featureFlags);
  for (const page of bundle.pages) put(pageItemId(page), 'page', page);
  return items;
}

export function kindOf(itemId: string): ContentItemKind | undefined {
  if (itemId.startsWith('page.')) return 'page';
  if (modalKeyOf(itemId)) return 'modal';
  const fixed: Record<string, ContentItemKind> = {
    'site-settings': 'site-settings',
    'service-alert': 'service-alert',
    maintenance: 'maintenance',
    navigation: 'navigation',
    'feature-flags': 'feature-flags',
  };
  return fixed[itemId];
}

export function titleOf(item: Item): string {
  switch (item.kind) {
    case 'site-settings':
      return 'Site settings';
    case 'service-alert':
      return 'Service alert';
    case 'maintenance':
      return 'Maintenance mode';
    case 'navigation':
      return 'Navigation';
    case 'feature-flags':
      return 'Feature flags';
    case 'modal':
      return `Modal window: ${(item.body as { heading?: string }).heading ?? item.id}`;
    case 'page':
      return `Page ${(item.body as { url?: string }).url ?? item.id}`;
  }
}

/** What the published items make together: the bundle the content store is written from. */
export function assemble(items: ReadonlyMap<string, Item>): ContentBundle {
  const body = (id: string) => items.get(id)?.body;
  const alert = body('service-alert') as ServiceAlertItem;
  const maintenance = body('maintenance') as MaintenanceItem;
  const settings: Record<string, unknown> = {
    ...(body('site-settings') as object),
    serviceAlert: { visible: alert.visible, title: alert.title, message: alert.message },
    isMaintenanceMode: maintenance.on,
  };
  for (const key of modalKeys) settings[key] = body(modalItemId(key));
  const schedule: OperationsSchedule = {
    maintenanceEndsAt: maintenance.on ? (maintenance.endsAt ?? null) : null,
    alertStartsAt: alert.visible ? (alert.startsAt ?? null) : null,
    alertEndsAt: alert.visible ? (alert.endsAt ?? null) : null,
  };
  if (Object.values(schedule).some((v) => v !== null)) settings[SCHEDULE_KEY] = schedule;
  const pages = [...items.values()]
    .filter((i) => i.kind === 'page')
    .map((i) => i.body as PageContent)
    .sort((a, b) => a.url.localeCompare(b.url));
  return {
    settings: settings as SiteSettings,
    navigation: body('navigation') as Navigation,
    featureFlags: body('feature-flags') as FeatureDefinitions,
    pages,
  };
}

/**
 * The settings as customers get them now: the service alert shown only inside its window, maintenance mode
 * over once its end has come; and when that changes next (null: not by itself).
 */
export function applySchedule(
  stored: Record<string, unknown>,
  nowMs: number,
): { settings: Record<string, unknown>; nextChangeMs: number | null } {
  const { [SCHEDULE_KEY]: raw, ...settings } = stored;
  const schedule = raw as Partial<OperationsSchedule> | undefined;
  if (!schedule) return { settings, nextChangeMs: null };
  const at = (v: string | null | undefined) => (v ? Date.parse(v) : null);
  const boundaries: number[] = [];
  const maintenanceEnds = at(schedule.maintenanceEndsAt);
  if (maintenanceEnds !== null) {
    if (nowMs >= maintenanceEnds) settings['isMaintenanceMode'] = false;
    else boundaries.push(maintenanceEnds);
  }
  const starts = at(schedule.alertStartsAt);
  const ends = at(schedule.alertEndsAt);
  const alert = settings['serviceAlert'] as { visible?: boolean } | undefined;
  if (alert?.visible) {
    const before = starts !== null && nowMs < starts;
    const after = ends !== null && nowMs >= ends;
    if (before || after) settings['serviceAlert'] = { ...alert, visible: false };
    for (const b of [starts, ends]) if (b !== null && b > nowMs) boundaries.push(b);
  }
  return { settings, nextChangeMs: boundaries.length > 0 ? Math.min(...boundaries) : null };
}

/** A 422 naming each field that is not right. */
export function invalid(fieldErrors: Record<string, string>): HttpError {
  const [first] = Object.entries(fieldErrors);
  return new HttpError(
    422,
    'CONTENT_INVALID',
    first ? `This change cannot be saved: ${first[0]}: ${first[1]}` : 'This change cannot be saved.',
    fieldErrors,
  );
}

function checked<S extends z.ZodMiniType>(schema: S, value: unknown): z.infer<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data as z.infer<S>;
  const fieldErrors: Record<string, string> = {};
  for (const issue of result.error.issues.slice(0, 20)) {
    const key = issue.path.map(String).join('.') || 'body';
    fieldErrors[key] ??= issue.message;
  }
  throw invalid(fieldErrors);
}

/**
 * An item's body checked with the schema its file is checked with (the rich-text subset with it), and
 * with what must not change (a page's address and id). Answers it as the store keeps it.
 */
export function validateItem(item: Item, body: unknown, published: unknown): unknown {
  switch (item.kind) {
    case 'site-settings': {
      if (body && typeof body === 'object') {
        const stray = Object.keys(body).filter((k) => notSettingsOwn.has(k) || k === SCHEDULE_KEY);
        if (stray.length > 0) throw invalid({ [stray[0]!]: 'Change this in its own item' });
      }
      // Checked whole, with the modals and the alert as published.
      const parsed = checked(siteSettings, {
        ...(body as object),
        serviceAlert: { visible: false, title: '', message: '' },
        ...Object.fromEntries(modalKeys.map((k) => [k, { id: k, heading: 'x' }])),
      }) as Record<string, unknown>;
      return Object.fromEntries(Object.entries(parsed).filter(([key]) => !notSettingsOwn.has(key)));
    }
    case 'service-alert': {
      const alert = checked(serviceAlertItem, body);
      if (alert.startsAt && alert.endsAt && Date.parse(alert.endsAt) <= Date.parse(alert.startsAt))
        throw invalid({ endsAt: 'Must be after the start' });
      // No window is no key at all: the alert then reads as its file writes it.
      const { startsAt, endsAt, ...words } = alert;
      return { ...words, ...(startsAt ? { startsAt } : {}), ...(endsAt ? { endsAt } : {}) };
    }
    case 'maintenance':
      return checked(maintenanceItem, body);
    case 'modal':
      return checked(modalContent, body);
    case 'navigation':
      return checked(navigation, body);
    case 'feature-flags': {
      const flags = checked(featureDefinitions, body);
      for (const [key, flag] of Object.entries(flags.features)) {
        for (const [i, rule] of (flag.rules ?? []).entries()) {
          if (rule.weights && rule.variations && rule.weights.length !== rule.variations.length)
            throw invalid({ [`features.${key}.rules.${i}.weights`]: 'One weight for each variation' });
          if (rule.weights && Math.abs(rule.weights.reduce((a, b) => a + b, 0) - 1) > 1e-6)
            throw invalid({ [`features.${key}.rules.${i}.weights`]: 'The weights must add up to 1' });
        }
      }
      return flags;
    }
    case 'page': {
      const page = checked(pageContent, body);
      const before = published as PageContent;
      if (page.url !== before.url) throw invalid({ url: 'A page’s address cannot be changed here' });
      if (page.id !== before.id) throw invalid({ id: 'A page’s id cannot be changed' });
      return page;
    }
  }
}

/** JSON with its keys in order, so two equal values compare equal whatever order they were written in. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

export const sameBody = (a: unknown, b: unknown) => stableJson(a) === stableJson(b);

const shown = (v: unknown): string | null =>
  v === undefined ? null : typeof v === 'string' ? v : stableJson(v);

const MAX_CHANGES = 200;

/** What changed from `before` to `after`, field by field (a readable diff). */
export function changesBetween(before: unknown, after: unknown): ContentChange[] {
  const changes: ContentChange[] = [];
  const walk = (a: unknown, b: unknown, path: string) => {
    if (changes.length >= MAX_CHANGES || sameBody(a, b)) return;
    const bothObjects =
      a && b && typeof a === 'object' && typeof b === 'object' && Array.isArray(a) === Array.isArray(b);
    if (bothObjects) {
      const keys = Array.isArray(a)
        ? [...Array(Math.max(a.length, (b as unknown[]).length)).keys()].map(String)
        : [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
      for (const key of keys) {
        walk(
          (a as Record<string, unknown>)[key],
          (b as Record<string, unknown>)[key],
          path ? `${path}.${key}` : key,
        );
      }
      return;
    }
    changes.push({ path: path || '(whole item)', before: shown(a), after: shown(b) });
  };
  walk(before, after, '');
  return changes;
}
