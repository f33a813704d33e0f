import type { FastifyInstance } from 'fastify';
import { instanceOf, type PlatformContext } from './module';
import type { Queryable } from './db';
import {
  maskRecipient,
  DeliveryError,
  type Notifier,
  type NotifierAdapter,
  type UndeliverableMessage,
} from './notifier/message';
import { outboxAdapter, recordInOutbox } from './notifier/outbox';
import { createMessageWorker, enqueueMessage, type MessageWorker } from './notifier/queue';
import { smsWebhookAdapter } from './notifier/sms-webhook';
import { smtpAdapter } from './notifier/smtp';
import { inSpan, SpanKind } from './tracing';

export * from './notifier/message';
export * from './notifier/email-template';

type NotifierContext = PlatformContext;

/** The part of Fastify's logger the worker uses (messages sent, retried, given up). */
type WorkerLog = Pick<FastifyInstance['log'], 'info' | 'warn' | 'error'>;

interface Messaging {
  notifier: Notifier;
  worker: MessageWorker;
}

const silent: WorkerLog = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** A provider's adapter whose every delivery is a span (when tracing is on): channel and kind, no recipient. */
function traced(adapter: NotifierAdapter): NotifierAdapter {
  return {
    name: adapter.name,
    deliver: (message, options) =>
      inSpan(
        `${adapter.name} deliver`,
        SpanKind.CLIENT,
        { 'portal.message.channel': message.channel, 'portal.message.kind': message.kind },
        () => adapter.deliver(message, options),
      ),
  };
}

/**
 * One notifier for every message to customers. Email goes to SMTP when SMTP_URL is set, text and voice to
 * the provider gateway when SMS_PROVIDER=webhook; anything else goes to the outbox. Messages for a
 * provider are queued (message_queue) and sent by the worker; messages for the outbox are written to it
 * directly, since it is a table of ours already.
 */
function createMessaging(ctx: NotifierContext): Messaging {
  const workerLog = () => logs.get(instanceOf(ctx)) ?? silent;
  const outbox = outboxAdapter(ctx.db, ctx.clock);
  const { messaging } = ctx.config;
  const email: NotifierAdapter = messaging.smtpUrl
    ? traced(smtpAdapter(messaging.smtpUrl, messaging.mailFrom))
    : outbox;
  const phone: NotifierAdapter =
    messaging.smsProvider === 'webhook' && messaging.smsWebhookUrl
      ? traced(smsWebhookAdapter(messaging.smsWebhookUrl, messaging.smsWebhookToken))
      : outbox;
  const adapterFor = (channel: 'sms' | 'voice' | 'email') => (channel === 'email' ? email : phone);
  const worker = createMessageWorker({
    db: ctx.db,
    clock: ctx.clock,
    adapterFor,
    onUndeliverable: async (tx, message) => {
      const listener = undeliverableListeners.get(instanceOf(ctx))?.get(message.kind);
      if (listener) await listener(tx, message);
    },
    // Resolved at each line: the app's logger once installMessageWorker has run.
    log: {
      info: (obj, msg) => workerLog().info(obj, msg),
      warn: (obj, msg) => workerLog().warn(obj, msg),
      error: (obj, msg) => workerLog().error(obj, msg),
    },
  });

  const notifier: Notifier = {
    async enqueue(message, options = {}) {
      const adapter = adapterFor(message.channel);
      const fields = { channel: message.channel, to: maskRecipient(message.to), kind: message.kind };
      if (adapter === outbox) {
        await recordInOutbox(options.tx ?? ctx.db, ctx.clock, message);
        options.log?.info(
          { ...fields, adapter: adapter.name },
          `message sent: ${message.channel} ${message.kind} to ${fields.to}`,
        );
        return;
      }
      const id = await enqueueMessage(options.tx ?? ctx.db, message, ctx.clock.now());
      options.log?.info(
        { ...fields, messageId: id, adapter: adapter.name },
        `message queued: ${message.channel} ${message.kind} to ${fields.to}`,
      );
      // In a transaction the row is not visible until it commits: the next poll finds it then.
      worker.wake();
    },

    async sendNow(message, log) {
      const adapter = adapterFor(message.channel);
      const fields = {
        channel: message.channel,
        to: maskRecipient(message.to),
        kind: message.kind,
        adapter: adapter.name,
      };
      try {
        await adapter.deliver(message, { timeoutMs: ctx.config.messaging.sendNowTimeoutMs });
      } catch (error) {
        log?.error(
          { ...fields, reason: error instanceof Error ? error.message : 'unknown' },
          'message not delivered',
        );
        throw error instanceof DeliveryError ? error : new DeliveryError('Message delivery failed');
      }
      log?.info(fields, `message sent: ${message.channel} ${message.kind} to ${fields.to}`);
    },
  };
  return { notifier, worker };
}

const messagings = new WeakMap<object, Messaging>();
type UndeliverableListener = (tx: Queryable, message: UndeliverableMessage) => Promise<void>;
const undeliverableListeners = new WeakMap<object, Map<string, UndeliverableListener>>();

/**
 * Tells `listener` of every queued message of this `kind` given up (refused for good by the provider, or
 * failed at every attempt), in the transaction that marks it dead: the module that queued it records
 * what it must (with the message's `reference`) without the platform knowing of it. One listener a kind.
 */
export function onUndeliverable(ctx: PlatformContext, kind: string, listener: UndeliverableListener): void {
  const instance = instanceOf(ctx);
  let byKind = undeliverableListeners.get(instance);
  if (!byKind) undeliverableListeners.set(instance, (byKind = new Map()));
  byKind.set(kind, listener);
}
const logs = new WeakMap<object, WorkerLog>();

function messagingOf(ctx: PlatformContext): Messaging {
  const instance = instanceOf(ctx);
  let m = messagings.get(instance);
  if (!m) {
    m = createMessaging(ctx);
    messagings.set(instance, m);
  }
  return m;
}

/** The app's notifier, created on first use from its configuration. */
export function notifier(ctx: PlatformContext): Notifier {
  return messagingOf(ctx).notifier;
}

/** The app's message worker (tests drain it to see queued messages sent). */
export function messageWorker(ctx: PlatformContext): MessageWorker {
  return messagingOf(ctx).worker;
}

/**
 * Runs the app's message worker while the app runs: it starts when the app is ready (sending what an
 * earlier run left queued) and stops, after the sends in flight, when the app closes.
 */
export function installMessageWorker(app: FastifyInstance, ctx: PlatformContext): void {
  logs.set(instanceOf(ctx), app.log);
  // Created here, outside any request: the worker's passes run in this (empty) async context.
  const { worker } = messagingOf(ctx);
  app.addHook('onReady', async () => worker.start());
  app.addHook('onClose', async () => worker.stop());
}
