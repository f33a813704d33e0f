import { z } from 'zod';
import { ConfigError, optionalUrl } from './common';
import type { NodeEnv } from './process';
import type { ModuleName } from './services';

/* How messages reach customers (emails, texts, calls), and the dev outbox that stands in for them. */

export const messagingVariables = z.object({
  /** Shown on the outbox page and API; refused in production whatever this says. */
  DEV_OUTBOX: z.enum(['on', 'off']).default('on'),
  /** Email delivery: an SMTP URL (smtp:// or smtps://, credentials in the URL); unset means the outbox. */
  SMTP_URL: z.url({ protocol: /^smtps?$/ }).optional(),
  /** The From address of every email we send. */
  MAIL_FROM: z.string().min(3).max(200).default('Customer Portal <no-reply@portal.example.co.uk>'),
  /** Where contact-us messages go: the insurer's customer service inbox. */
  CONTACT_INBOX: z.string().email().max(200).default('customer.service@portal.example.co.uk'),
  /** Text and voice delivery: 'outbox' (default; dev page and log) or 'webhook' (a provider gateway over HTTPS). */
  SMS_PROVIDER: z.enum(['outbox', 'webhook']).default('outbox'),
  /** With SMS_PROVIDER=webhook: the gateway URL that receives {channel, to, text} as JSON. */
  SMS_WEBHOOK_URL: optionalUrl,
  /** With SMS_PROVIDER=webhook: the bearer token sent to the gateway. */
  SMS_WEBHOOK_TOKEN: z.string().min(1).max(500).optional(),
  SEND_NOW_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(2000),
  /**
   * Document notices: documents of one customer arriving within this many minutes of the first go in one
   * email (issue 40). 0 sends each pass's notices at once.
   */
  DOCUMENT_NOTICE_WINDOW_MINUTES: z.coerce.number().int().min(0).max(1440).default(10),
  /**
   * Quiet hours, UK time, as HH:MM-HH:MM (it may wrap midnight), or `off`: a text telling a customer of
   * new documents waits until they end (emails do not wait).
   */
  DOCUMENT_NOTICE_QUIET_HOURS: z
    .string()
    .regex(/^(off|([01]\d|2[0-3]):[0-5]\d-([01]\d|2[0-3]):[0-5]\d)$/, 'Expected HH:MM-HH:MM (UK time) or off')
    .default('21:00-08:00'),
});
type MessagingValues = z.infer<typeof messagingVariables> & NodeEnv;

export interface MessagingConfig {
  /** How messages to customers are delivered (see platform/notifier.ts). */
  messaging: {
    smtpUrl: string | undefined;
    mailFrom: string;
    contactInbox: string;
    smsProvider: 'outbox' | 'webhook';
    smsWebhookUrl: string | undefined;
    smsWebhookToken: string | undefined;
    /**
     * Milliseconds a synchronous send (a sign-in code, a customer's message to the inbox) waits for the
     * provider before the customer is told it did not go.
     */
    sendNowTimeoutMs: number;
    /**
     * Milliseconds a customer's first pending document notice waits for others before one email lists
     * them all (DOCUMENT_NOTICE_WINDOW_MINUTES).
     */
    documentNoticeWindowMs: number;
    /**
     * Quiet hours for notice texts, as minutes after midnight UK time (start, end; start > end wraps
     * midnight), or null for none (DOCUMENT_NOTICE_QUIET_HOURS).
     */
    documentNoticeQuietHours: { start: number; end: number } | null;
  };
  devOutbox: boolean;
}

export function messagingConfig(e: MessagingValues, modules: ReadonlySet<ModuleName>): MessagingConfig {
  if (e.SMS_PROVIDER === 'webhook' && !e.SMS_WEBHOOK_URL) {
    throw new ConfigError('Invalid configuration: SMS_WEBHOOK_URL: required when SMS_PROVIDER=webhook');
  }
  requireRealDelivery(e, modules);
  return {
    messaging: {
      smtpUrl: e.SMTP_URL,
      mailFrom: e.MAIL_FROM,
      contactInbox: e.CONTACT_INBOX,
      smsProvider: e.SMS_PROVIDER,
      smsWebhookUrl: e.SMS_WEBHOOK_URL,
      smsWebhookToken: e.SMS_WEBHOOK_TOKEN,
      sendNowTimeoutMs: e.SEND_NOW_TIMEOUT_MS,
      documentNoticeWindowMs: e.DOCUMENT_NOTICE_WINDOW_MINUTES * 60_000,
      documentNoticeQuietHours: quietHours(e.DOCUMENT_NOTICE_QUIET_HOURS),
    },
    devOutbox: e.NODE_ENV !== 'production' && e.DEV_OUTBOX === 'on',
  };
}

/** "21:00-08:00" as minutes after midnight; null for "off" or an empty span (start = end). */
function quietHours(value: string): { start: number; end: number } | null {
  if (value === 'off') return null;
  const [start = 0, end = 0] = value
    .split('-')
    .map((time) => time.split(':').map(Number))
    .map(([hours = 0, minutes = 0]) => hours * 60 + minutes);
  return start === end ? null : { start, end };
}

/** The modules that send customers codes (texts, calls) or emails, directly or through identity. */
const messagingModules: readonly ModuleName[] = ['identity', 'registration', 'account', 'portal'];

/**
 * In production a code or an email must reach the customer: an instance serving a module that sends them
 * refuses to start with the outbox (SMS_PROVIDER=outbox, the default, or no SMTP_URL), which only the dev
 * outbox page, never mounted in production, can read.
 */
function requireRealDelivery(e: MessagingValues, modules: ReadonlySet<ModuleName>): void {
  if (e.NODE_ENV !== 'production' || !messagingModules.some((m) => modules.has(m))) return;
  if (e.SMS_PROVIDER === 'outbox') {
    throw new ConfigError(
      'Invalid configuration: SMS_PROVIDER: outbox is not allowed in production (codes would reach no one); set SMS_PROVIDER=webhook and SMS_WEBHOOK_URL',
    );
  }
  if (!e.SMTP_URL) {
    throw new ConfigError(
      'Invalid configuration: SMTP_URL: required in production (emails would reach no one without it)',
    );
  }
}
