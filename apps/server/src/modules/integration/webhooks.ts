import { Webhook } from 'standardwebhooks';
import type { FastifyBaseLogger } from 'fastify';
import type { WebhookEndpointConfig } from '../../config';
import type { Db } from '../../platform/db';
import {
  eventsById,
  hasUnsequencedEvents,
  onCustomerEvent,
  sequenceEvents as sequenceJournal,
  type JournalRow,
} from '../../platform/customer-events';
import { instanceOf, type PlatformContext } from '../../platform/module';
import { createPollingWorker, type PollingWorker } from '../../platform/polling-worker';
import { backoffMs, type QueueTiming } from '../../platform/notifier/queue';
import { inSpan, SpanKind } from '../../platform/tracing';
import {
  claimDeliveries,
  createDeliveries,
  markDelivered,
  markFailed,
  type ClaimedDelivery,
} from './events.repository';

/**
 * Webhook timing. Retries double from 30 s up to every 2 hours; after 20 attempts (about 24 hours of
 * retries) a delivery is dead, listed for the insurer to retry once their receiver is back.
 */
export const webhookTiming: QueueTiming & { timeoutMs: number } = {
  pollMs: 1000,
  baseBackoffMs: 30_000,
  maxBackoffMs: 2 * 60 * 60_000,
  maxAttempts: 20,
  // Well past the request timeout, so a live instance's claim is never taken over.
  leaseMs: 5 * 60_000,
  batch: 10,
  timeoutMs: 10_000,
};

const SEQUENCE_BATCH = 500;
const SEQUENCER_LOCK = 'integration:event-sequencer';

/**
 * Gives every committed event its feed position and its deliveries, one sequencer at a time across
 * instances: the transaction-scoped advisory lock is held until the positions commit, so the next
 * sequencer (here or on another instance) reads the highest position only once it is visible, and a
 * reader paging by position never sees a later one before an earlier one.
 */
export async function sequenceEvents(ctx: PlatformContext): Promise<void> {
  if (!(await hasUnsequencedEvents(ctx.db))) return;
  const targets = ctx.config.integration.webhooks.map((w) => ({ id: w.id, types: w.events ?? null }));
  for (;;) {
    const done = await ctx.db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [SEQUENCER_LOCK]);
      const sequenced = await sequenceJournal(tx, SEQUENCE_BATCH);
      await createDeliveries(tx, targets, sequenced, ctx.clock.now());
      return sequenced.length;
    });
    if (done < SEQUENCE_BATCH) return;
  }
}

/** What a failed attempt keeps and logs: a status or a kind of connection failure, never the body. */
interface Failure {
  error: string;
  status: number | null;
}

/** One delivery's POST, in a span of its own when tracing is on (the endpoint's id, never its URL's query). */
function post(endpoint: WebhookEndpointConfig, delivery: JournalRow): Promise<Failure | number> {
  return inSpan(
    'webhook POST',
    SpanKind.CLIENT,
    {
      'http.request.method': 'POST',
      'portal.webhook.endpoint': endpoint.id,
      'portal.webhook.type': delivery.type,
    },
    () => postNow(endpoint, delivery),
  );
}

async function postNow(endpoint: WebhookEndpointConfig, delivery: JournalRow): Promise<Failure | number> {
  const body = JSON.stringify({
    type: delivery.type,
    timestamp: new Date(delivery.occurred_at).toISOString(),
    data: delivery.data,
  });
  // The signature's timestamp is the wall clock's, not the app clock's: receivers check it against their
  // own clock to refuse replays, so it must be when the request is really sent.
  const sentAt = new Date();
  const signature = new Webhook(endpoint.secret).sign(delivery.event_id, sentAt, body);
  try {
    const res = await fetch(endpoint.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'webhook-id': delivery.event_id,
        'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
        'webhook-signature': signature,
      },
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(webhookTiming.timeoutMs),
    });
    // The receiver's answer is not read beyond its status: it is theirs and may echo personal data.
    await res.body?.cancel();
    return res.ok ? res.status : { error: `HTTP ${res.status}`, status: res.status };
  } catch (error) {
    const name = error instanceof Error ? error.name : '';
    return { error: name === 'TimeoutError' ? 'timed out' : 'connection failed', status: null };
  }
}

/** drain() sequences and sends everything due. */
type WebhookDispatcher = PollingWorker;

type DispatchLog = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;

/**
 * Sends the events' deliveries to the configured receivers, signed (Standard Webhooks), in the shape of
 * the message queue's worker (platform/notifier/queue.ts): each pass sequences new events, then claims
 * due deliveries under a lease and posts them; 2xx is delivered, anything else is retried after a
 * back-off, and dead after `maxAttempts`.
 */
function createWebhookDispatcher(ctx: PlatformContext, log: () => DispatchLog): WebhookDispatcher {
  const db: Db = ctx.db;
  const endpoints = new Map(ctx.config.integration.webhooks.map((w) => [w.id, w]));
  const endpointIds = [...endpoints.keys()];

  const sendOne = async (delivery: ClaimedDelivery, event: JournalRow | undefined) => {
    const endpoint = endpoints.get(delivery.endpoint_id)!;
    // Its event erased meanwhile: nothing is left to send (the delivery goes with it).
    if (!event) return;
    const fields = {
      deliveryId: Number(delivery.id),
      endpointId: endpoint.id,
      eventId: event.event_id,
      type: event.type,
      attempts: delivery.attempts,
    };
    const outcome = await post(endpoint, event);
    const now = ctx.clock.now();
    if (typeof outcome === 'number') {
      await markDelivered(db, delivery.id, outcome, now);
      log().info({ ...fields, status: outcome }, 'webhook delivered');
      return;
    }
    if (delivery.attempts >= webhookTiming.maxAttempts) {
      await markFailed(db, delivery.id, outcome, null);
      log().error({ ...fields, reason: outcome.error }, 'webhook not delivered: gave up');
      return;
    }
    const retryAt = new Date(now.getTime() + backoffMs(delivery.attempts, webhookTiming));
    await markFailed(db, delivery.id, outcome, retryAt);
    log().warn(
      { ...fields, reason: outcome.error, retryAt: retryAt.toISOString() },
      'webhook not delivered: will retry',
    );
  };

  return createPollingWorker({
    name: 'webhook-dispatcher',
    pollMs: webhookTiming.pollMs,
    async pass(stopping) {
      await sequenceEvents(ctx);
      if (endpointIds.length === 0) return;
      for (;;) {
        if (stopping()) return;
        const now = ctx.clock.now();
        const claimed = await claimDeliveries(
          db,
          endpointIds,
          now,
          new Date(now.getTime() + webhookTiming.leaseMs),
          webhookTiming.batch,
        );
        if (claimed.length === 0) return;
        const events = new Map(
          (
            await eventsById(
              db,
              claimed.map((d) => Number(d.event_row_id)),
            )
          ).map((e) => [Number(e.id), e]),
        );
        await Promise.all(claimed.map((d) => sendOne(d, events.get(Number(d.event_row_id)))));
      }
    },
    // The database is down: the deliveries wait, the next poll tries again.
    onError: (error) =>
      log().warn(
        { reason: error instanceof Error ? error.message : 'unknown' },
        'webhook dispatcher: pass failed',
      ),
  });
}

const dispatchers = new WeakMap<object, WebhookDispatcher>();
const logs = new WeakMap<object, DispatchLog>();
const silent: DispatchLog = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** The app's webhook dispatcher (created on first use, outside any request; tests drain it). */
export function webhookDispatcher(ctx: PlatformContext): WebhookDispatcher {
  const instance = instanceOf(ctx);
  let d = dispatchers.get(instance);
  if (!d) {
    d = createWebhookDispatcher(ctx, () => logs.get(instance) ?? silent);
    dispatchers.set(instance, d);
    // A change recorded in this process wakes it (after its transaction commits, the next pass finds it).
    const dispatcher = d;
    onCustomerEvent(ctx, () => dispatcher.wake());
  }
  return d;
}

/** Where the dispatcher logs once the app is built. */
export function setDispatchLog(ctx: PlatformContext, log: DispatchLog): void {
  logs.set(instanceOf(ctx), log);
}
