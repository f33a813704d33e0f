import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { writeAudit } from '../../platform/audit';
import { recordCustomerEvent } from '../../platform/customer-events';
import type { Queryable } from '../../platform/db';
import { notifier, onUndeliverable, type UndeliverableMessage } from '../../platform/notifier';
import { instanceOf, type PlatformContext } from '../../platform/module';
import { createPollingWorker, type PollingWorker } from '../../platform/polling-worker';
import type { DocumentContext } from './context';
import { DOCUMENT_NOTICE_KIND, documentNoticeEmail } from './notice-email';
import { DOCUMENT_NOTICE_TEXT_KIND, documentNoticeText } from './notice-text';
import {
  dueCustomers,
  failBatch,
  insertNotices,
  markNotices,
  pendingNotices,
  tryLockCustomerNotices,
  type NoticeChannel,
  type NoticeInput,
  type NoticeRow,
} from './notices.repository';

/*
 * Document notices (issue 40 points 1-3). A paperless customer with an online account is told by email
 * when a bill, a policy document or a quote document arrives or changes: each such document is a pending
 * notice, written in the document's own transaction (so it exists exactly when the document does). A
 * pass on every instance takes the customers whose first pending notice is older than the window and,
 * for each in one transaction, queues one email listing them, marks them sent and records the
 * `customer.document.notified` event: a crash before the commit leaves them pending for the next pass,
 * and none is sent twice. An email the mail server refuses for good, or that fails at every attempt,
 * records `customer.notice.failed` so the insurer can post paper instead.
 *
 * A customer on paper is told only if they asked for email in their preferences; anyone may ask for a
 * text as well (point 4). Each channel's notices are rows of their own: a text waits out the quiet hours
 * (UK time), an email does not.
 */

/** How often an instance looks for notices due (the window is counted from the first of a customer's). */
const POLL_MS = 60_000;
/** Customers taken at a time, each in a transaction of its own. */
const BATCH = 50;

/** The notices' part of the events: each document once (the newest notice of it says new or updated). */
function documentsOf(notices: readonly NoticeRow[]) {
  const byDocument = new Map<string, NoticeRow>();
  for (const n of notices) {
    const key = `${n.category}:${n.documentId}`;
    const earlier = byDocument.get(key);
    // New then changed within the window is still new to the customer.
    byDocument.set(key, earlier?.change === 'new' ? { ...n, change: 'new' } : n);
  }
  return [...byDocument.values()];
}

const eventDocuments = (notices: readonly NoticeRow[]) =>
  notices.map((n) => ({
    documentId: n.documentId,
    category: n.category,
    kind: n.kind,
    change: n.change,
  }));

/** The channels a recipient is told by. */
const channelsOf = (recipient: { email: string | null; mobile: string | null }): NoticeChannel[] => [
  ...(recipient.email !== null ? (['email'] as const) : []),
  ...(recipient.mobile !== null ? (['sms'] as const) : []),
];

/**
 * Records that these documents of the customer arrived or changed, in the write's transaction, for each
 * way the customer is told (email when paperless or chosen, text when chosen; an online account needed):
 * nothing otherwise.
 */
export async function recordNotices(
  ctx: DocumentContext,
  tx: Queryable,
  customerId: string,
  notices: readonly NoticeInput[],
): Promise<void> {
  if (notices.length === 0) return;
  const recipient = await ctx.services.customers.documentNoticeRecipient(tx, customerId);
  if (!recipient) return;
  await insertNotices(tx, customerId, notices, channelsOf(recipient), ctx.clock.now());
  passWhenDue(ctx);
}

const londonClock = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/London',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** Whether it is within the quiet hours now, UK time (DOCUMENT_NOTICE_QUIET_HOURS): texts wait. */
function inQuietHours(now: Date, quiet: { start: number; end: number } | null): boolean {
  if (!quiet) return false;
  const parts = Object.fromEntries(londonClock.formatToParts(now).map((p) => [p.type, p.value]));
  const minutes = Number(parts['hour']) * 60 + Number(parts['minute']);
  return quiet.start < quiet.end
    ? minutes >= quiet.start && minutes < quiet.end
    : minutes >= quiet.start || minutes < quiet.end;
}

/** Timers set to run this instance's pass as the window of a notice just recorded ends. */
const wakes = new WeakMap<object, ReturnType<typeof setTimeout>>();

/**
 * Runs this instance's pass a second after the window of a notice recorded now ends (after the write has
 * committed), so a notice goes out as its window closes rather than at the next poll: one timer per
 * instance at a time (the poll finds the rest).
 */
function passWhenDue(ctx: DocumentContext): void {
  const instance = instanceOf(ctx);
  const worker = workers.get(instance);
  if (!worker || wakes.has(instance)) return;
  const timer = setTimeout(() => {
    wakes.delete(instance);
    worker.wake();
  }, ctx.config.messaging.documentNoticeWindowMs + 1000);
  timer.unref();
  wakes.set(instance, timer);
}

/**
 * Sends the customer's pending notices of these channels, one message per channel, if they are still due
 * and no other instance has them: answers whether it did anything with them.
 */
async function noticeCustomer(
  ctx: DocumentContext,
  customerId: string,
  channels: readonly NoticeChannel[],
): Promise<boolean> {
  return ctx.db.transaction(async (tx) => {
    if (!(await tryLockCustomerNotices(tx, customerId))) return false;
    const now = ctx.clock.now();
    let done = false;
    // Read again now: the customer may have gone back to paper, stopped texts, or closed the account.
    type Recipient = Awaited<ReturnType<typeof ctx.services.customers.documentNoticeRecipient>>;
    let recipient: Recipient | undefined;
    for (const channel of channels) {
      const notices = await pendingNotices(tx, customerId, channel);
      const first = notices[0];
      if (!first || first.createdAt.getTime() > now.getTime() - ctx.config.messaging.documentNoticeWindowMs) {
        continue;
      }
      done = true;
      if (recipient === undefined) {
        recipient = await ctx.services.customers.documentNoticeRecipient(tx, customerId);
      }
      const ids = notices.map((n) => n.id);
      const to = channel === 'email' ? recipient?.email : recipient?.mobile;
      if (!recipient || to === null || to === undefined) {
        await markNotices(tx, ids, 'dropped', null, now);
        continue;
      }
      const documents = documentsOf(notices);
      const batchId = randomUUID();
      const items = documents.map((n) => ({ ...n, arrivedAt: n.createdAt }));
      const common = { to, customerId, publicUrl: ctx.config.publicUrl, reference: batchId, items };
      await notifier(ctx).enqueue(
        channel === 'email'
          ? documentNoticeEmail({ ...common, firstName: recipient.firstName })
          : documentNoticeText(common),
        { tx },
      );
      await markNotices(tx, ids, 'sent', batchId, now);
      await recordCustomerEvent(ctx, tx, {
        type: 'customer.document.notified',
        customerId,
        data: { documents: eventDocuments(documents), channel },
        occurredAt: now,
      });
      await writeAudit(tx, {
        source: 'server',
        eventId: 'document.notice.sent',
        customerId,
        isSuccess: true,
        occurredAt: now,
        details: { documents: documents.length, channel },
      });
    }
    return done;
  });
}

/** One pass: every customer due now, until none is left that this instance can take. */
async function sendDueNotices(ctx: DocumentContext, stopping: () => boolean = () => false) {
  for (;;) {
    if (stopping()) return;
    const now = ctx.clock.now();
    const cutoff = new Date(now.getTime() - ctx.config.messaging.documentNoticeWindowMs);
    // In the quiet hours texts wait (a later pass sends them); emails go.
    const channels: NoticeChannel[] = inQuietHours(now, ctx.config.messaging.documentNoticeQuietHours)
      ? ['email']
      : ['email', 'sms'];
    const due = await dueCustomers(ctx.db, cutoff, channels, BATCH);
    let done = 0;
    for (const customerId of due) {
      if (stopping()) return;
      if (await noticeCustomer(ctx, customerId, channels)) done++;
    }
    // Those left are another instance's now: it sends them.
    if (due.length < BATCH || done === 0) return;
  }
}

/** A notice's email or text given up: the insurer is told, so it can post the documents instead. */
async function noticeUndeliverable(
  ctx: DocumentContext,
  tx: Queryable,
  message: UndeliverableMessage,
  channel: NoticeChannel,
) {
  if (!message.reference || !message.customerId) return;
  const notices = await failBatch(tx, message.reference);
  // The customer was erased meanwhile: there is no one left to tell of.
  if (notices.length === 0) return;
  const now = ctx.clock.now();
  await recordCustomerEvent(ctx, tx, {
    type: 'customer.notice.failed',
    customerId: message.customerId,
    data: { documents: eventDocuments(documentsOf(notices)), channel, reason: message.reason },
    occurredAt: now,
  });
  await writeAudit(tx, {
    source: 'server',
    eventId: 'document.notice.failed',
    customerId: message.customerId,
    isSuccess: false,
    failureReason: message.reason,
    occurredAt: now,
    details: { documents: notices.length, channel },
  });
}

const workers = new WeakMap<object, PollingWorker>();

/** The app's notice pass (tests drain it after moving the clock); there once the module is mounted. */
export function documentNoticeWorker(ctx: PlatformContext): PollingWorker {
  const worker = workers.get(instanceOf(ctx));
  if (!worker) throw new Error('The document module is not mounted in this app');
  return worker;
}

/**
 * Runs the notice pass while the app runs, and listens for the notices' emails given up. Logs the pass's
 * failures (the database down) without data; the next poll tries again.
 */
export function installDocumentNotices(app: FastifyInstance, ctx: DocumentContext): void {
  onUndeliverable(ctx, DOCUMENT_NOTICE_KIND, (tx, message) => noticeUndeliverable(ctx, tx, message, 'email'));
  onUndeliverable(ctx, DOCUMENT_NOTICE_TEXT_KIND, (tx, message) =>
    noticeUndeliverable(ctx, tx, message, 'sms'),
  );
  const worker = createPollingWorker({
    name: 'document-notices',
    pollMs: POLL_MS,
    pass: (stopping) => sendDueNotices(ctx, stopping),
    onError: (error) =>
      app.log.warn(
        { reason: error instanceof Error ? error.message : 'unknown' },
        'document notices: pass failed',
      ),
  });
  workers.set(instanceOf(ctx), worker);
  app.addHook('onReady', async () => worker.start());
  app.addHook('onClose', async () => worker.stop());
}
