import { z } from 'zod/mini';
import { defineCall, errorEnvelope, named } from './call';
import { isoDateTime } from './common';
import { richText } from './content/building-blocks';
import { flagValue } from './content/feature-flags';

/*
 * The site's content and operations switches in the staff console (issue 42): editors change content
 * items (drafts, submitted for publishing), publishers publish and roll back (four eyes by default), and
 * operators turn maintenance mode, the service alert and feature flags on and off. Each item's published
 * versions are kept with who and when. Calls under /staff/api like the contact centre's (staff.ts): a
 * session cookie, the role checked on the server, writes with the CSRF token.
 */

/**
 * A content item's id: `site-settings`, `service-alert`, `maintenance`, `navigation`, `feature-flags`,
 * `modal-<file name>` (each modal window), `page.<page id>` (each page).
 */
export const contentItemId = z.string().check(z.regex(/^[a-z0-9][a-z0-9._-]{0,150}$/i, 'Not a content item'));
export const contentItemParams = z.strictObject({ itemId: contentItemId });

export const contentItemKinds = [
  'site-settings',
  'service-alert',
  'maintenance',
  'modal',
  'navigation',
  'page',
  'feature-flags',
] as const;
export type ContentItemKind = (typeof contentItemKinds)[number];

/**
 * The service alert as an item: its words, whether it shows, and an optional window (it shows only from
 * `startsAt` and until `endsAt`). The site settings' `serviceAlert` is this without the window.
 */
export const serviceAlertItem = z.object({
  visible: z.boolean(),
  title: z.string().check(z.trim(), z.minLength(1, 'Enter the title'), z.maxLength(120)),
  message: richText,
  startsAt: z.optional(z.nullable(isoDateTime)),
  endsAt: z.optional(z.nullable(isoDateTime)),
});
export type ServiceAlertItem = z.infer<typeof serviceAlertItem>;

/** Maintenance mode as an item: on or off, and when it ends by itself (null: when switched off). */
export const maintenanceItem = z.object({
  on: z.boolean(),
  endsAt: z.nullable(isoDateTime),
});
export type MaintenanceItem = z.infer<typeof maintenanceItem>;

/** Who did something, as the console shows it (the workforce provider's subject stays on the server). */
const actor = z.object({ name: z.string(), at: isoDateTime });

export const contentItemSummary = z.object({
  id: z.string(),
  kind: z.enum(contentItemKinds),
  title: z.string(),
  /** The published version's number (1: as first loaded from the files). */
  version: z.number(),
  published: actor,
  /** A draft, if there is one: being edited, or submitted for publishing. */
  draft: z.nullable(
    z.object({ state: z.enum(['editing', 'submitted']), editedBy: z.string(), at: isoDateTime }),
  ),
  /** The file in content/ says something else than the published version (an edit not yet exported). */
  fileDiffers: z.boolean(),
});
export type ContentItemSummary = z.infer<typeof contentItemSummary>;

export const contentItemList = named(z.object({ items: z.array(contentItemSummary) }), 'StaffContentItems');

/** One change between two versions, readably: the field's path, what it was and what it is. */
export const contentChange = z.object({
  path: z.string(),
  before: z.nullable(z.string()),
  after: z.nullable(z.string()),
});
export type ContentChange = z.infer<typeof contentChange>;

export const contentVersionEntry = z.object({
  version: z.number(),
  published: actor,
  /** file: loaded from content/; console: an editor's change, published; rollback: an earlier version again; operations: an operator's switch. */
  source: z.enum(['file', 'console', 'rollback', 'operations']),
  /** Who made the change published (the editor), when not the publisher. */
  editedBy: z.nullable(z.string()),
  reason: z.nullable(z.string()),
  /** For a rollback: the version published again. */
  restoredVersion: z.nullable(z.number()),
  /** What changed from the version before (empty for the first). */
  changes: z.array(contentChange),
});
export type ContentVersionEntry = z.infer<typeof contentVersionEntry>;

export const contentItemDetail = named(
  z.object({
    id: z.string(),
    kind: z.enum(contentItemKinds),
    title: z.string(),
    version: z.number(),
    /** The published body, as the content files write it. */
    body: z.unknown(),
    draft: z.nullable(
      z.object({
        state: z.enum(['editing', 'submitted']),
        body: z.unknown(),
        /** The published version the draft was started from. */
        baseVersion: z.number(),
        editedBy: z.string(),
        at: isoDateTime,
        /** The draft's changes from the published version. */
        changes: z.array(contentChange),
        /** Whether the staff member asking may publish it (their role, and four eyes). */
        mayPublish: z.boolean(),
      }),
    ),
    /** Where the file in content/ differs from the published version: what the file says. */
    fileDiffers: z.nullable(z.object({ changes: z.array(contentChange), detectedAt: isoDateTime })),
    /** Every published version, newest first. */
    history: z.array(contentVersionEntry),
    /** Public pages the item can be previewed on (site paths). */
    previewPaths: z.array(z.string()),
  }),
  'StaffContentItem',
);
export type ContentItemDetail = z.infer<typeof contentItemDetail>;

const errors = {
  400: errorEnvelope,
  401: errorEnvelope,
  403: errorEnvelope,
  404: errorEnvelope,
  409: errorEnvelope,
  422: errorEnvelope,
  503: errorEnvelope,
};

const editors = ['editor', 'publisher'] as const;

export const listContentItemsCall = defineCall({
  id: 'staff.content.list',
  summary: 'The content items: published version, draft and whether the file differs',
  service: 'staff',
  method: 'GET',
  path: '/staff/api/content',
  auth: false,
  staffRoles: [...editors, 'operator'],
  responses: { 200: contentItemList, ...errors },
});

export const getContentItemCall = defineCall({
  id: 'staff.content.get',
  summary:
    'One content item: the published body, the draft, the file’s difference and every version with its changes',
  service: 'staff',
  method: 'GET',
  path: '/staff/api/content/:itemId',
  auth: false,
  staffRoles: [...editors, 'operator'],
  params: contentItemParams,
  responses: { 200: contentItemDetail, ...errors },
});

export const saveContentDraftBody = z.strictObject({
  /** The whole item as it should be, checked with the same schema as the content files. */
  body: z.unknown(),
  /** The published version the editor started from: a draft over a newer one is refused (409). */
  baseVersion: z.number().check(z.int(), z.minimum(1)),
  /** Submit for publishing as well as saving. */
  submit: z.optional(z.boolean()),
});
export const saveContentDraftCall = defineCall({
  id: 'staff.content.saveDraft',
  summary:
    'Saves an editor’s draft of an item (validated as the files are: 422 naming the field), and may submit it',
  service: 'staff',
  method: 'PUT',
  path: '/staff/api/content/:itemId/draft',
  auth: false,
  staffRoles: ['editor'],
  params: contentItemParams,
  body: saveContentDraftBody,
  responses: { 200: contentItemDetail, ...errors },
});

export const discardContentDraftCall = defineCall({
  id: 'staff.content.discardDraft',
  summary: 'Discards an item’s draft',
  service: 'staff',
  method: 'DELETE',
  path: '/staff/api/content/:itemId/draft',
  auth: false,
  staffRoles: [...editors],
  params: contentItemParams,
  responses: { 200: contentItemDetail, ...errors },
});

const publishReason = z.optional(
  z.string().check(z.trim(), z.maxLength(200, 'Keep the reason to 200 characters')),
);

export const publishContentBody = z.strictObject({
  /** The draft's base version, as the publisher saw it: the draft changed meanwhile is refused (409). */
  baseVersion: z.number().check(z.int(), z.minimum(1)),
  reason: publishReason,
});
export const publishContentCall = defineCall({
  id: 'staff.content.publish',
  summary:
    'Publishes an item’s submitted draft as its next version, in one transaction, live everywhere within 5 seconds',
  service: 'staff',
  method: 'POST',
  path: '/staff/api/content/:itemId/publish',
  auth: false,
  staffRoles: ['publisher'],
  params: contentItemParams,
  body: publishContentBody,
  responses: { 200: contentItemDetail, ...errors },
});

export const rollbackContentBody = z.strictObject({
  /** The earlier version to publish again, as a new version. */
  version: z.number().check(z.int(), z.minimum(1)),
  reason: publishReason,
});
export const rollbackContentCall = defineCall({
  id: 'staff.content.rollback',
  summary: 'Publishes an earlier version of an item again, as its next version',
  service: 'staff',
  method: 'POST',
  path: '/staff/api/content/:itemId/rollback',
  auth: false,
  staffRoles: ['publisher'],
  params: contentItemParams,
  body: rollbackContentBody,
  responses: { 200: contentItemDetail, ...errors },
});

export const contentPreviewBody = z.strictObject({
  /** The site path to show (one of the item's preview paths). */
  path: z.string().check(z.regex(/^\/[a-z0-9/-]{0,200}$/, 'Not a site path')),
});
export const contentPreviewCall = defineCall({
  id: 'staff.content.preview',
  summary:
    'A short-lived address of a customer page showing the item’s draft: the page as a customer sees it, for staff only',
  service: 'staff',
  method: 'POST',
  path: '/staff/api/content/:itemId/preview',
  auth: false,
  staffRoles: [...editors],
  params: contentItemParams,
  body: contentPreviewBody,
  responses: {
    200: named(z.object({ url: z.string(), expiresAt: isoDateTime }), 'StaffContentPreview'),
    ...errors,
  },
});

/*
 * The operator's switches (issue 42 point 5): each with a reason, audited, published at once as the item's
 * next version (no four eyes: they are for incidents), live on every instance within 5 seconds.
 */

const operationReason = z
  .string()
  .check(
    z.trim(),
    z.minLength(3, 'Give a reason: an incident or change reference'),
    z.maxLength(200, 'Keep the reason to 200 characters'),
  );

export const operationsState = named(
  z.object({
    maintenance: z.object({ on: z.boolean(), endsAt: z.nullable(isoDateTime), inForce: z.boolean() }),
    serviceAlert: z.object({
      visible: z.boolean(),
      title: z.string(),
      message: z.string(),
      startsAt: z.nullable(isoDateTime),
      endsAt: z.nullable(isoDateTime),
      /** Whether customers see it now (visible, and inside its window). */
      showing: z.boolean(),
    }),
    flags: z.array(
      z.object({
        key: z.string(),
        defaultValue: flagValue,
        /** The flag's experiment, if it runs one: its variations and their weights. */
        experiment: z.nullable(
          z.object({
            ruleId: z.string(),
            variations: z.array(flagValue),
            weights: z.array(z.number()),
            coverage: z.number(),
          }),
        ),
      }),
    ),
  }),
  'StaffOperations',
);
export type OperationsState = z.infer<typeof operationsState>;

export const getOperationsCall = defineCall({
  id: 'staff.operations.get',
  summary: 'Maintenance mode, the service alert and the feature flags as they are now',
  service: 'staff',
  method: 'GET',
  path: '/staff/api/operations',
  auth: false,
  staffRoles: ['operator'],
  responses: { 200: operationsState, ...errors },
});

export const setMaintenanceBody = z.strictObject({
  on: z.boolean(),
  /** When it ends by itself (only with on). */
  endsAt: z.optional(z.nullable(isoDateTime)),
  reason: operationReason,
});
export const setMaintenanceCall = defineCall({
  id: 'staff.operations.maintenance',
  summary: 'Turns maintenance mode on (optionally until a time) or off, with a reason',
  service: 'staff',
  method: 'POST',
  path: '/staff/api/operations/maintenance',
  auth: false,
  staffRoles: ['operator'],
  body: setMaintenanceBody,
  responses: { 200: operationsState, ...errors },
});

export const setServiceAlertBody = z.strictObject({
  visible: z.boolean(),
  startsAt: z.optional(z.nullable(isoDateTime)),
  endsAt: z.optional(z.nullable(isoDateTime)),
  /** New words, if the operator changes them too. */
  title: z.optional(z.string()),
  message: z.optional(z.string()),
  reason: operationReason,
});
export const setServiceAlertCall = defineCall({
  id: 'staff.operations.serviceAlert',
  summary: 'Shows or hides the service alert, optionally from and until a time, with a reason',
  service: 'staff',
  method: 'POST',
  path: '/staff/api/operations/service-alert',
  auth: false,
  staffRoles: ['operator'],
  body: setServiceAlertBody,
  responses: { 200: operationsState, ...errors },
});

export const setFlagBody = z.strictObject({
  key: z.string().check(z.minLength(1), z.maxLength(200)),
  defaultValue: z.optional(flagValue),
  /** The experiment's weights, one per variation, adding up to 1. */
  weights: z.optional(z.array(z.number().check(z.minimum(0), z.maximum(1))).check(z.maxLength(20))),
  /** The share of visitors in the experiment (0 turns it off). */
  coverage: z.optional(z.number().check(z.minimum(0), z.maximum(1))),
  reason: operationReason,
});
export const setFlagCall = defineCall({
  id: 'staff.operations.flag',
  summary: 'Changes a feature flag’s default value or its experiment’s weights or coverage, with a reason',
  service: 'staff',
  method: 'POST',
  path: '/staff/api/operations/flags',
  auth: false,
  staffRoles: ['operator'],
  body: setFlagBody,
  responses: { 200: operationsState, ...errors },
});

/*
 * Dead letters (issue 42 point 5): messages to customers the portal gave up sending (the mail server or the
 * text gateway refused them, or every retry failed). The operator sees what kind and why, never the
 * recipient or the text, and sends one again or discards it, with a reason.
 */

const deadLetter = z.object({
  id: z.string(),
  channel: z.enum(['sms', 'voice', 'email']),
  kind: z.string(),
  customerId: z.nullable(z.string()),
  createdAt: isoDateTime,
  attempts: z.number(),
  lastError: z.nullable(z.string()),
});

export type DeadLetter = z.infer<typeof deadLetter>;

export const listDeadLettersCall = defineCall({
  id: 'staff.operations.deadLetters',
  summary: 'The messages given up, newest first (at most 100): kind, customer, attempts and the last error',
  service: 'staff',
  method: 'GET',
  path: '/staff/api/operations/dead-letters',
  auth: false,
  staffRoles: ['operator'],
  responses: { 200: named(z.object({ items: z.array(deadLetter) }), 'StaffDeadLetters'), ...errors },
});

const deadLetterParams = z.strictObject({
  id: z.string().check(z.regex(/^[1-9][0-9]{0,17}$/, 'Not a message')),
});
const deadLetterBody = z.strictObject({ reason: operationReason });

export const retryDeadLetterCall = defineCall({
  id: 'staff.operations.retryDeadLetter',
  summary: 'Sends a dead letter again, its attempts counted afresh (audited, with a reason)',
  service: 'staff',
  method: 'POST',
  path: '/staff/api/operations/dead-letters/:id/retry',
  auth: false,
  staffRoles: ['operator'],
  params: deadLetterParams,
  body: deadLetterBody,
  responses: { 204: z.undefined(), ...errors },
});

export const discardDeadLetterCall = defineCall({
  id: 'staff.operations.discardDeadLetter',
  summary: 'Discards a dead letter (audited, with a reason)',
  service: 'staff',
  method: 'POST',
  path: '/staff/api/operations/dead-letters/:id/discard',
  auth: false,
  staffRoles: ['operator'],
  params: deadLetterParams,
  body: deadLetterBody,
  responses: { 204: z.undefined(), ...errors },
});
