import { createHash, randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { normaliseContentPath, type FeatureDefinitions, type PageContent } from '@portal/contracts/content';
import type {
  ContentItemDetail,
  ContentItemSummary,
  ContentVersionEntry,
  MaintenanceItem,
  OperationsState,
  ServiceAlertItem,
} from '@portal/contracts/staff-content';
import { writeAudit } from '../../platform/audit';
import type { Queryable } from '../../platform/db';
import { HttpError, notFound } from '../../platform/errors';
import type { ModuleContext, PlatformContext } from '../../platform/module';
import {
  assemble,
  changesBetween,
  invalid,
  itemsOf,
  kindOf,
  sameBody,
  titleOf,
  validateItem,
  type Item,
} from './content-items';
import { forgetSourceFingerprint, getSourceFingerprint, setSourceFingerprint } from './content.repository';
import {
  crossCheck,
  defaultContentDir,
  loadContentFiles,
  writeContent,
  type ContentBundle,
  type SeedResult,
} from './content.seed';
import {
  bumpRevision,
  deleteDraft,
  deleteFileConflict,
  getDraft,
  getPreview,
  insertPreview,
  insertVersion,
  latestVersions,
  listDrafts,
  listFileConflicts,
  putDraft,
  putFileConflict,
  clearFileConflictsExcept,
  versionsOf,
  type VersionRow,
  type VersionSource,
} from './editorial.repository';

/*
 * The editorial side of content (issue 42): drafts per item, publishing (one transaction: the new version,
 * the content store written from every published item, the revision moved on and announced), history with
 * readable changes, rollback as a new version, the operators' switches, previews of a draft, and the
 * differences between the files and what was published from the console.
 */

/** Who acts, from their staff session (the staff module passes it; content names no staff table). */
export interface ContentActor {
  subject: string;
  name: string;
  roles: readonly string[];
  sessionId: string;
  correlationId: string | null;
}

/** How long a preview address works. */
const PREVIEW_MS = 10 * 60_000;

/** Items only operators change (through their switches), never by an editor's draft. */
const operatorsOnly = new Set(['maintenance', 'feature-flags']);

export interface ContentEditorial {
  list(): Promise<ContentItemSummary[]>;
  get(itemId: string, actor: ContentActor): Promise<ContentItemDetail>;
  saveDraft(
    itemId: string,
    actor: ContentActor,
    input: { body: unknown; baseVersion: number; submit?: boolean | undefined },
  ): Promise<ContentItemDetail>;
  discardDraft(itemId: string, actor: ContentActor): Promise<ContentItemDetail>;
  publish(
    itemId: string,
    actor: ContentActor,
    input: { baseVersion: number; reason?: string | undefined },
  ): Promise<ContentItemDetail>;
  rollback(
    itemId: string,
    actor: ContentActor,
    input: { version: number; reason?: string | undefined },
  ): Promise<ContentItemDetail>;
  /** A token that shows the item's draft on a customer's page at `path` for a few minutes. */
  preview(itemId: string, actor: ContentActor, path: string): Promise<{ token: string; expiresAt: Date }>;
  /** The store's bundle with a preview's draft in place of its item; null when the token is not live. */
  previewBundle(token: string): Promise<ContentBundle | null>;
  operations(): Promise<OperationsState>;
  setMaintenance(
    actor: ContentActor,
    input: { on: boolean; endsAt?: string | null | undefined; reason: string },
  ): Promise<OperationsState>;
  setServiceAlert(
    actor: ContentActor,
    input: {
      visible: boolean;
      startsAt?: string | null | undefined;
      endsAt?: string | null | undefined;
      title?: string | undefined;
      message?: string | undefined;
      reason: string;
    },
  ): Promise<OperationsState>;
  setFlag(
    actor: ContentActor,
    input: {
      key: string;
      defaultValue?: string | number | boolean | null | undefined;
      weights?: number[] | undefined;
      coverage?: number | undefined;
      reason: string;
    },
  ): Promise<OperationsState>;
  /** The items whose files differ from what was published from the console. */
  fileConflicts(): Promise<string[]>;
}

const iso = (d: Date) => d.toISOString();

/** The published items as the store's versions hold them. */
function publishedItems(latest: ReadonlyMap<string, VersionRow>): Map<string, Item> {
  const items = new Map<string, Item>();
  for (const [id, v] of latest) {
    const kind = kindOf(id);
    if (kind) items.set(id, { id, kind, body: v.body });
  }
  return items;
}

/**
 * Writes the content store from the published items and moves the revision on (announcing it): every
 * instance reads the new content within seconds. In the caller's transaction.
 */
async function writeStore(tx: Queryable, items: ReadonlyMap<string, Item>, now: Date): Promise<void> {
  await writeContent(tx, assemble(items), now);
}

/**
 * Loads the files' items into the versions in the seed's transaction: a new item is its version 1; an
 * item whose latest version came from the files follows the file (a deploy's change); an item published
 * from the console keeps its edit, and a file that says otherwise is recorded (the console shows it, the
 * start logs it). Answers the items to write the store from, and those whose file differs.
 */
async function seedVersions(
  tx: Queryable,
  bundle: ContentBundle,
  now: Date,
): Promise<SeedResult & { conflicts: string[] }> {
  // The revision's lock first: a publish on another instance waits for the seed, and the reverse.
  await bumpRevision(tx);
  const fileItems = itemsOf(bundle);
  const latest = await latestVersions(tx);
  const conflicts: string[] = [];
  const items = new Map<string, Item>();
  for (const [id, file] of fileItems) {
    const v = latest.get(id);
    if (!v || (v.source === 'file' && !sameBody(v.body, file.body))) {
      await insertVersion(tx, {
        item: id,
        version: (v?.version ?? 0) + 1,
        body: file.body,
        source: 'file',
        publishedBy: null,
        publishedByName: null,
        editedByName: null,
        reason: null,
        restoredVersion: null,
        publishedAt: now,
      });
      items.set(id, file);
    } else if (sameBody(v.body, file.body)) {
      items.set(id, file);
    } else {
      conflicts.push(id);
      await putFileConflict(tx, id, file.body, now);
      items.set(id, { ...file, body: v.body });
    }
  }
  await clearFileConflictsExcept(tx, conflicts);
  return { ...(await writeContent(tx, assemble(items), now)), conflicts };
}

/**
 * Loads `content/` into the content store in one transaction: validates every file, adds new items and
 * follows files changed by a deploy, keeps what was published from the console (recording where the file
 * differs), and removes pages whose files were deleted. Idempotent: a second run writes nothing. Invalid
 * files stop it before anything is written.
 */
export async function seedContent(
  ctx: PlatformContext,
  dir: string = defaultContentDir,
): Promise<SeedResult & { conflicts: string[] }> {
  const [bundle, fingerprint] = await Promise.all([loadContentFiles(dir), contentFingerprint(dir)]);
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const result = await seedVersions(tx, bundle, now);
    await setSourceFingerprint(tx, fingerprint, now);
    return result;
  });
}

/**
 * The start-up seed: loads content/ only when its files differ from those last seeded. Reading and
 * validating every file is most of a start's seeding time, and at most starts nothing has changed.
 * (An explicit `seedContent` always runs in full, restoring rows edited by hand in the database.)
 */
export async function seedContentIfChanged(
  ctx: PlatformContext,
  dir: string = defaultContentDir,
): Promise<(SeedResult & { conflicts: string[] }) | 'unchanged'> {
  const fingerprint = await contentFingerprint(dir);
  if ((await getSourceFingerprint(ctx.db)) === fingerprint) return 'unchanged';
  return seedContent(ctx, dir);
}

/** A hash of every file under the content directory: its path relative to it and its bytes. */
async function contentFingerprint(dir: string): Promise<string> {
  const hash = createHash('sha256');
  const walk = async (sub: string): Promise<void> => {
    const entries = (await readdir(path.join(dir, sub), { withFileTypes: true })).sort((a, b) =>
      a.name.localeCompare(b.name),
    );
    for (const entry of entries) {
      const rel = path.posix.join(sub, entry.name);
      if (entry.isDirectory()) await walk(rel);
      else if (entry.isFile())
        hash
          .update(`${rel}\0`)
          .update(await readFile(path.join(dir, rel)))
          .update('\0');
    }
  };
  await walk('');
  return hash.digest('base64url');
}

export function createContentEditorial(ctx: ModuleContext<'content'>): ContentEditorial {
  const unknownItem = () => notFound('There is no such content item.');

  async function detail(
    itemId: string,
    actor: ContentActor,
    db: Queryable = ctx.db,
  ): Promise<ContentItemDetail> {
    const kind = kindOf(itemId);
    const versions = kind ? await versionsOf(db, itemId) : [];
    const current = versions[0];
    if (!kind || !current) throw unknownItem();
    const [draft, conflicts, latest] = await Promise.all([
      getDraft(db, itemId),
      listFileConflicts(db),
      latestVersions(db),
    ]);
    const conflict = conflicts.get(itemId);
    const item: Item = { id: itemId, kind, body: current.body };
    const history: ContentVersionEntry[] = versions.map((v, i) => ({
      version: v.version,
      published: { name: v.publishedByName ?? 'Content files', at: iso(v.publishedAt) },
      source: v.source,
      editedBy: v.editedByName,
      reason: v.reason,
      restoredVersion: v.restoredVersion,
      changes: versions[i + 1] ? changesBetween(versions[i + 1]!.body, v.body) : [],
    }));
    return {
      id: itemId,
      kind,
      title: titleOf(item),
      version: current.version,
      body: current.body,
      draft: draft && {
        state: draft.state,
        body: draft.body,
        baseVersion: draft.baseVersion,
        editedBy: draft.editedByName,
        at: iso(draft.updatedAt),
        changes: changesBetween(current.body, draft.body),
        mayPublish:
          actor.roles.includes('publisher') &&
          draft.state === 'submitted' &&
          (ctx.config.staff.contentSelfPublish || draft.editedBy !== actor.subject),
      },
      fileDiffers: conflict
        ? { changes: changesBetween(current.body, conflict.fileBody), detectedAt: iso(conflict.detectedAt) }
        : null,
      history,
      previewPaths: previewPathsOf(item, publishedItems(latest)),
    };
  }

  function previewPathsOf(item: Item, items: ReadonlyMap<string, Item>): string[] {
    if (item.kind === 'maintenance' || item.kind === 'feature-flags') return [];
    if (item.kind === 'page') {
      const page = item.body as PageContent;
      return page.requiresAuthentication ? [] : [page.url];
    }
    const publicPages = [...items.values()]
      .filter((i) => i.kind === 'page' && !(i.body as PageContent).requiresAuthentication)
      .map((i) => (i.body as PageContent).url);
    const first = ['/login', '/register'].filter((p) => publicPages.includes(p));
    return [...first, ...publicPages.filter((p) => !first.includes(p)).sort()].slice(0, 8);
  }

  /** Checks an item's new body against its schema and, in place, against every other published item. */
  async function validated(
    itemId: string,
    body: unknown,
    db: Queryable,
    companions: (items: ReadonlyMap<string, Item>) => Array<{ id: string; body: unknown }> = () => [],
  ): Promise<{ item: Item; body: unknown; items: Map<string, Item>; changed: string[] }> {
    const kind = kindOf(itemId);
    const items = publishedItems(await latestVersions(db));
    const current = items.get(itemId);
    if (!kind || !current) throw unknownItem();
    const clean = validateItem(current, body, current.body);
    const next = new Map(items).set(itemId, { ...current, body: clean });
    const changed = [itemId];
    for (const other of companions(next)) {
      const was = next.get(other.id)!;
      next.set(other.id, { ...was, body: validateItem(was, other.body, was.body) });
      changed.push(other.id);
    }
    const problems = crossCheck(assemble(next), defaultContentDir);
    if (problems.length > 0) throw invalid({ body: problems[0]! });
    return { item: current, body: clean, items: next, changed };
  }

  /**
   * Publishes `body` as the item's next version (and the companions' changes it brings, a flag's
   * experiment weights on the pages that run it), in one transaction, and audits it.
   */
  async function publishVersion(
    tx: Queryable,
    actor: ContentActor,
    itemId: string,
    body: unknown,
    how: {
      source: VersionSource;
      reason: string | null;
      editedBy: string | null;
      restored: number | null;
      auditEvent: string;
      companions?: (items: ReadonlyMap<string, Item>) => Array<{ id: string; body: unknown }>;
    },
  ): Promise<void> {
    await bumpRevision(tx);
    const { items, changed } = await validated(itemId, body, tx, how.companions);
    const now = ctx.clock.now();
    const latest = await latestVersions(tx);
    for (const id of changed) {
      await insertVersion(tx, {
        item: id,
        version: latest.get(id)!.version + 1,
        body: items.get(id)!.body,
        source: how.source,
        publishedBy: actor.subject,
        publishedByName: actor.name,
        editedByName: how.editedBy,
        reason: how.reason,
        restoredVersion: id === itemId ? how.restored : null,
        publishedAt: now,
      });
    }
    await writeStore(tx, items, now);
    await forgetSourceFingerprint(tx);
    await writeAudit(tx, {
      source: 'server',
      eventId: how.auditEvent,
      onBehalfOf: `staff:${actor.subject}`,
      sessionId: actor.sessionId,
      correlationId: actor.correlationId,
      isSuccess: true,
      occurredAt: now,
      details: {
        item: itemId,
        version: latest.get(itemId)!.version + 1,
        ...(changed.length > 1 ? { alsoChanged: changed.slice(1) } : {}),
        ...(how.restored ? { restoredVersion: how.restored } : {}),
        ...(how.reason ? { reason: how.reason } : {}),
      },
    });
  }

  async function operationsState(db: Queryable = ctx.db): Promise<OperationsState> {
    const latest = await latestVersions(db);
    const maintenance = latest.get('maintenance')?.body as MaintenanceItem;
    const alert = latest.get('service-alert')?.body as ServiceAlertItem;
    const flags = latest.get('feature-flags')?.body as FeatureDefinitions;
    const nowMs = ctx.clock.now().getTime();
    const before = (at: string | null | undefined) => !at || nowMs < Date.parse(at);
    return {
      maintenance: {
        on: maintenance.on,
        endsAt: maintenance.endsAt ?? null,
        inForce: maintenance.on && before(maintenance.endsAt),
      },
      serviceAlert: {
        visible: alert.visible,
        title: alert.title,
        message: alert.message,
        startsAt: alert.startsAt ?? null,
        endsAt: alert.endsAt ?? null,
        showing:
          alert.visible && (!alert.startsAt || nowMs >= Date.parse(alert.startsAt)) && before(alert.endsAt),
      },
      flags: Object.entries(flags.features).map(([key, flag]) => {
        const rule = (flag.rules ?? []).find((r) => r.variations && r.weights);
        return {
          key,
          defaultValue: flag.defaultValue,
          experiment: rule
            ? {
                ruleId: rule.id ?? key,
                variations: rule.variations!,
                weights: rule.weights!,
                coverage: rule.coverage ?? 1,
              }
            : null,
        };
      }),
    };
  }

  /** An operator's switch: the item's next version at once (no four eyes), with the reason, audited. */
  async function operate(
    actor: ContentActor,
    itemId: string,
    change: (body: never) => unknown,
    reason: string,
    auditEvent: string,
    companions?: (items: ReadonlyMap<string, Item>) => Array<{ id: string; body: unknown }>,
  ): Promise<OperationsState> {
    await ctx.db.transaction(async (tx) => {
      const current = (await versionsOf(tx, itemId))[0];
      if (!current) throw unknownItem();
      await publishVersion(tx, actor, itemId, change(current.body as never), {
        source: 'operations',
        reason,
        editedBy: null,
        restored: null,
        auditEvent,
        ...(companions ? { companions } : {}),
      });
    });
    ctx.services.content.invalidate();
    return operationsState();
  }

  return {
    async list() {
      const [latest, drafts, conflicts] = await Promise.all([
        latestVersions(ctx.db),
        listDrafts(ctx.db),
        listFileConflicts(ctx.db),
      ]);
      const order = ['service-alert', 'maintenance', 'site-settings', 'navigation', 'feature-flags'];
      const rank = (id: string) =>
        order.includes(id) ? order.indexOf(id) : id.startsWith('modal-') ? 10 : 20;
      return [...publishedItems(latest).values()]
        .map((item): ContentItemSummary => {
          const v = latest.get(item.id)!;
          const draft = drafts.get(item.id);
          return {
            id: item.id,
            kind: item.kind,
            title: titleOf(item),
            version: v.version,
            published: { name: v.publishedByName ?? 'Content files', at: iso(v.publishedAt) },
            draft: draft
              ? { state: draft.state, editedBy: draft.editedByName, at: iso(draft.updatedAt) }
              : null,
            fileDiffers: conflicts.has(item.id),
          };
        })
        .sort((a, b) => rank(a.id) - rank(b.id) || a.title.localeCompare(b.title));
    },

    get: (itemId, actor) => detail(itemId, actor),

    async saveDraft(itemId, actor, input) {
      if (operatorsOnly.has(itemId))
        throw new HttpError(
          403,
          'FORBIDDEN',
          'Maintenance mode and the feature flags are changed under Operations.',
        );
      await ctx.db.transaction(async (tx) => {
        const current = (await versionsOf(tx, itemId))[0];
        if (!current) throw unknownItem();
        if (input.baseVersion !== current.version) {
          throw new HttpError(
            409,
            'CONTENT_CHANGED',
            `Version ${current.version} has been published since you started. Open the item again to see it.`,
          );
        }
        const { body } = await validated(itemId, input.body, tx);
        await putDraft(tx, {
          item: itemId,
          body,
          baseVersion: current.version,
          state: input.submit ? 'submitted' : 'editing',
          editedBy: actor.subject,
          editedByName: actor.name,
          updatedAt: ctx.clock.now(),
        });
        await writeAudit(tx, {
          source: 'server',
          eventId: input.submit ? 'staff.content.submit' : 'staff.content.draft',
          onBehalfOf: `staff:${actor.subject}`,
          sessionId: actor.sessionId,
          correlationId: actor.correlationId,
          isSuccess: true,
          occurredAt: ctx.clock.now(),
          details: { item: itemId, baseVersion: current.version },
        });
      });
      return detail(itemId, actor);
    },

    async discardDraft(itemId, actor) {
      if (!kindOf(itemId)) throw unknownItem();
      await deleteDraft(ctx.db, itemId);
      return detail(itemId, actor);
    },

    async publish(itemId, actor, input) {
      await ctx.db.transaction(async (tx) => {
        await bumpRevision(tx);
        const draft = await getDraft(tx, itemId, true);
        if (!draft || draft.state !== 'submitted')
          throw new HttpError(409, 'NOTHING_TO_PUBLISH', 'There is no change submitted for publishing.');
        const current = (await versionsOf(tx, itemId))[0];
        if (!current) throw unknownItem();
        if (draft.baseVersion !== input.baseVersion || draft.baseVersion !== current.version) {
          throw new HttpError(
            409,
            'CONTENT_CHANGED',
            'The change or the published version moved on since you opened it. Open the item again.',
          );
        }
        if (!ctx.config.staff.contentSelfPublish && draft.editedBy === actor.subject) {
          throw new HttpError(403, 'FOUR_EYES', 'You made this change: another publisher must publish it.');
        }
        await publishVersion(tx, actor, itemId, draft.body, {
          source: 'console',
          reason: input.reason || null,
          editedBy: draft.editedByName,
          restored: null,
          auditEvent: 'staff.content.publish',
        });
        await deleteDraft(tx, itemId);
        await deleteFileConflictIfSame(tx, itemId);
      });
      ctx.services.content.invalidate();
      return detail(itemId, actor);
    },

    async rollback(itemId, actor, input) {
      if (operatorsOnly.has(itemId)) {
        // A publisher rolls back content; maintenance and flags are switched under Operations.
        throw new HttpError(
          403,
          'FORBIDDEN',
          'Maintenance mode and the feature flags are changed under Operations.',
        );
      }
      await ctx.db.transaction(async (tx) => {
        const versions = await versionsOf(tx, itemId);
        if (versions.length === 0) throw unknownItem();
        const earlier = versions.find((v) => v.version === input.version);
        if (!earlier) throw invalid({ version: 'There is no such version' });
        if (earlier.version === versions[0]!.version)
          throw invalid({ version: 'This is the published version already' });
        await publishVersion(tx, actor, itemId, earlier.body, {
          source: 'rollback',
          reason: input.reason || null,
          editedBy: null,
          restored: earlier.version,
          auditEvent: 'staff.content.rollback',
        });
        await deleteFileConflictIfSame(tx, itemId);
      });
      ctx.services.content.invalidate();
      return detail(itemId, actor);
    },

    async preview(itemId, actor, path) {
      const item = await detail(itemId, actor);
      const wanted = normaliseContentPath(path);
      if (!item.previewPaths.includes(wanted)) throw invalid({ path: 'This item cannot be previewed there' });
      const token = randomBytes(24).toString('base64url');
      const now = ctx.clock.now();
      const expiresAt = new Date(now.getTime() + PREVIEW_MS);
      await insertPreview(ctx.db, {
        tokenHash: createHash('sha256').update(token).digest('base64url'),
        item: itemId,
        body: item.draft?.body ?? item.body,
        expiresAt,
        now,
      });
      return { token, expiresAt };
    },

    async previewBundle(token) {
      if (!/^[\w-]{20,64}$/.test(token)) return null;
      const preview = await getPreview(
        ctx.db,
        createHash('sha256').update(token).digest('base64url'),
        ctx.clock.now(),
      );
      if (!preview) return null;
      const items = publishedItems(await latestVersions(ctx.db));
      const current = items.get(preview.item);
      if (!current) return null;
      items.set(preview.item, { ...current, body: preview.body });
      return assemble(items);
    },

    operations: () => operationsState(),

    setMaintenance(actor, input) {
      if (!input.on && input.endsAt) throw invalid({ endsAt: 'Only when switching maintenance mode on' });
      if (input.endsAt && Date.parse(input.endsAt) <= ctx.clock.now().getTime())
        throw invalid({ endsAt: 'Must be in the future' });
      return operate(
        actor,
        'maintenance',
        () => ({ on: input.on, endsAt: input.on ? (input.endsAt ?? null) : null }),
        input.reason,
        input.on ? 'staff.operations.maintenanceOn' : 'staff.operations.maintenanceOff',
      );
    },

    setServiceAlert(actor, input) {
      return operate(
        actor,
        'service-alert',
        (body: ServiceAlertItem) => ({
          ...body,
          visible: input.visible,
          startsAt: input.visible ? (input.startsAt ?? null) : null,
          endsAt: input.visible ? (input.endsAt ?? null) : null,
          ...(input.title !== undefined ? { title: input.title } : {}),
          ...(input.message !== undefined ? { message: input.message } : {}),
        }),
        input.reason,
        input.visible ? 'staff.operations.serviceAlertOn' : 'staff.operations.serviceAlertOff',
      );
    },

    setFlag(actor, input) {
      return operate(
        actor,
        'feature-flags',
        (body: FeatureDefinitions) => {
          const flag = body.features[input.key];
          if (!flag) throw invalid({ key: 'There is no such flag' });
          const next = { ...flag };
          if (input.defaultValue !== undefined) next.defaultValue = input.defaultValue;
          if (input.weights !== undefined || input.coverage !== undefined) {
            const at = (flag.rules ?? []).findIndex((r) => r.variations && r.weights);
            if (at === -1) throw invalid({ weights: 'This flag runs no experiment' });
            const rules = [...flag.rules!];
            rules[at] = {
              ...rules[at]!,
              ...(input.weights !== undefined ? { weights: input.weights } : {}),
              ...(input.coverage !== undefined ? { coverage: input.coverage } : {}),
            };
            next.rules = rules;
          }
          return { ...body, features: { ...body.features, [input.key]: next } };
        },
        input.reason,
        'staff.operations.flag',
        // The pages running the flag's experiment say its weights too (checked as the files are).
        (items) => {
          const flags = items.get('feature-flags')!.body as FeatureDefinitions;
          const rule = (flags.features[input.key]?.rules ?? []).find((r) => r.variations && r.weights);
          if (!rule || input.weights === undefined) return [];
          return [...items.values()].flatMap((item) => {
            if (item.kind !== 'page') return [];
            const page = item.body as PageContent;
            if (!page.experiments.some((e) => e.key === input.key)) return [];
            const experiments = page.experiments.map((e) =>
              e.key !== input.key
                ? e
                : {
                    ...e,
                    variants: e.variants.map((v) => ({
                      ...v,
                      weight: rule.weights![rule.variations!.indexOf(v.id)] ?? v.weight,
                    })),
                  },
            );
            return [{ id: item.id, body: { ...page, experiments } }];
          });
        },
      );
    },

    async fileConflicts() {
      return [...(await listFileConflicts(ctx.db)).keys()];
    },
  };

  /** A published version that says what the file says ends the difference. */
  async function deleteFileConflictIfSame(tx: Queryable, itemId: string) {
    const conflict = (await listFileConflicts(tx)).get(itemId);
    const current = (await versionsOf(tx, itemId))[0];
    if (conflict && current && sameBody(conflict.fileBody, current.body))
      await deleteFileConflict(tx, itemId);
  }
}
