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
import {
  dueCustomers,
  failBatch,
  insertNotices,
  markNotices,
  pendingNotices,
  tryLockCustomerNotices,
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

/**
 * Records that these documents of the customer arrived or changed, in the write's transaction, when the
 * customer is one to tell (paperless, with an online account and an email): nothing otherwise.
 */
export async function recordNotices(
  ctx: DocumentContext,
  tx: Queryable,
  customerId: string,
  notices: readonly NoticeInput[],
): Promise<void> {
  if (notices.length === 0) return;
  if (!(await ctx.services.customers.documentNoticeRecipient(tx, customerId))) return;
  await insertNotices(tx, customerId, notices, ctx.clock.now());
  passWhenDue(ctx);
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
 * Sends the customer's pending notices in one email, if they are still due and no other instance has
 * them: answers whether it did anything with them.
 */
async function noticeCustomer(ctx: DocumentContext, customerId: string): Promise<boolean> {
  return ctx.db.transaction(async (tx) => {
    if (!(await tryLockCustomerNotices(tx, customerId))) return false;
    const notices = await pendingNotices(tx, customerId);
    const now = ctx.clock.now();
    const first = notices[0];
    if (!first || first.createdAt.getTime() > now.getTime() - ctx.config.messaging.documentNoticeWindowMs) {
      return false;
    }
    const ids = notices.map((n) => n.id);
    // Read again now: the customer may have gone back to paper, or closed the account, meanwhile.
    const recipient = await ctx.services.customers.documentNoticeRecipient(tx, customerId);
    if (!recipient) {
      await markNotices(tx, ids, 'dropped', null, now);
      return true;
    }
    const documents = documentsOf(notices);
    const batchId = randomUUID();
    await notifier(ctx).enqueue(
      documentNoticeEmail({
        to: recipient.email,
        firstName: recipient.firstName,
        customerId,
        publicUrl: ctx.config.publicUrl,
        reference: batchId,
        items: documents.map((n) => ({ ...n, arrivedAt: n.createdAt })),
      }),
      { tx },
    );
    await markNotices(tx, ids, 'sent', batchId, now);
    await recordCustomerEvent(ctx, tx, {
      type: 'customer.document.notified',
      customerId,
      data: { documents: eventDocuments(documents), channel: 'email' },
      occurredAt: now,
    });
    await writeAudit(tx, {
      source: 'server',
      eventId: 'document.notice.sent',
      customerId,
      isSuccess: true,
      occurredAt: now,
      details: { documents: documents.length, channel: 'email' },
    });
    return true;
  });
}

/** One pass: every customer due now, until none is left that this instance can take. */
async function sendDueNotices(ctx: DocumentContext, stopping: () => boolean = () => false) {
  for (;;) {
    if (stopping()) return;
    const cutoff = new Date(ctx.clock.now().getTime() - ctx.config.messaging.documentNoticeWindowMs);
    const due = await dueCustomers(ctx.db, cutoff, BATCH);
    let done = 0;
    for (const customerId of due) {
      if (stopping()) return;
      if (await noticeCustomer(ctx, customerId)) done++;
    }
    // Those left are another instance's now: it sends them.
    if (due.length < BATCH || done === 0) return;
  }
}

/** A notice's email given up: the insurer is told, so it can post the documents instead. */
async function noticeUndeliverable(ctx: DocumentContext, tx: Queryable, message: UndeliverableMessage) {
  if (!message.reference || !message.customerId) return;
  const notices = await failBatch(tx, message.reference);
  // The customer was erased meanwhile: there is no one left to tell of.
  if (notices.length === 0) return;
  const now = ctx.clock.now();
  await recordCustomerEvent(ctx, tx, {
    type: 'customer.notice.failed',
    customerId: message.customerId,
    data: { documents: eventDocuments(documentsOf(notices)), channel: 'email', reason: message.reason },
    occurredAt: now,
  });
  await writeAudit(tx, {
    source: 'server',
    eventId: 'document.notice.failed',
    customerId: message.customerId,
    isSuccess: false,
    failureReason: message.reason,
    occurredAt: now,
    details: { documents: notices.length, channel: 'email' },
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
  onUndeliverable(ctx, DOCUMENT_NOTICE_KIND, (tx, message) => noticeUndeliverable(ctx, tx, message));
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
