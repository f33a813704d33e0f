import type { ModuleContext } from './module';
import { maskRecipient, DeliveryError, type Notifier, type NotifierAdapter } from './notifier/message';
import { outboxAdapter } from './notifier/outbox';
import { smsWebhookAdapter } from './notifier/sms-webhook';
import { smtpAdapter } from './notifier/smtp';

export * from './notifier/message';

/**
 * One notifier for every message to customers. Email goes to SMTP when SMTP_URL is set, text and voice to
 * the provider gateway when SMS_PROVIDER=webhook; anything else goes to the outbox.
 */
function createNotifier(ctx: Pick<ModuleContext, 'config' | 'db' | 'clock'>): Notifier {
  const outbox = outboxAdapter(ctx.db, ctx.clock);
  const { messaging } = ctx.config;
  const email: NotifierAdapter = messaging.smtpUrl
    ? smtpAdapter(messaging.smtpUrl, messaging.mailFrom)
    : outbox;
  const phone: NotifierAdapter =
    messaging.smsProvider === 'webhook' && messaging.smsWebhookUrl
      ? smsWebhookAdapter(messaging.smsWebhookUrl, messaging.smsWebhookToken)
      : outbox;
  return {
    async send(message, log) {
      const adapter = message.channel === 'email' ? email : phone;
      const fields = {
        channel: message.channel,
        to: maskRecipient(message.to),
        kind: message.kind,
        adapter: adapter.name,
      };
      try {
        await adapter.deliver(message);
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
}

const notifiers = new WeakMap<object, Notifier>();

/** The app's notifier, created on first use from its configuration. */
export function notifier(ctx: ModuleContext): Notifier {
  let n = notifiers.get(ctx);
  if (!n) {
    n = createNotifier(ctx);
    notifiers.set(ctx, n);
  }
  return n;
}
