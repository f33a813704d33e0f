import type { Queryable } from '../db';

/** The notifier's message types and recipient helpers, shared by the notifier and its adapters. */
type Channel = 'sms' | 'voice' | 'email';

/**
 * One message to a customer. `text` is what they read or hear; it may hold a code or link. An email also
 * has `html`, its HTML part, rendered with `text` from one description (notifier/email-template.ts).
 */
export interface OutboundMessage {
  channel: Channel;
  /** A phone number (sms, voice) or an email address. */
  to: string;
  /** What the message is for, e.g. 'mfa-code', 'activation', 'password-reset'. Safe to log. */
  kind: string;
  subject?: string;
  text: string;
  /** Email only: the HTML part, sent with `text` as multipart/alternative. Never logged. */
  html?: string | null;
  customerId?: string | null;
  /**
   * The queuing module's own reference (e.g. a batch id), kept with a queued message and given back to
   * the listener of its kind when it cannot be delivered (onUndeliverable). Opaque to the platform.
   */
  reference?: string | null;
}

/**
 * Delivers messages of some channels. The outbox adapter is the default for every channel; a real
 * provider replaces it per channel by configuration (SMTP_URL for email, SMS_PROVIDER for text and voice).
 * To add a provider: implement this interface in platform/notifier/<name>.ts and choose it in createNotifier.
 */
export interface NotifierAdapter {
  readonly name: string;
  /**
   * Delivers one message, or throws DeliveryError. `timeoutMs` bounds the wait for the provider (the
   * synchronous sends pass a short one); without it the adapter's own, longer bound applies.
   */
  deliver(message: OutboundMessage, options?: { timeoutMs?: number }): Promise<void>;
}

/** Seconds a client is asked to wait after a synchronous send failed (the provider may be recovering). */
export const SEND_NOW_RETRY_AFTER_SECONDS = 30;

/** The part of a logger the notifier uses (a Fastify request logger fits). */
export interface NotifyLog {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

interface EnqueueOptions {
  /** The caller's open transaction: the message is queued only if it commits (state and message together). */
  tx?: Queryable;
  log?: NotifyLog;
}

export interface Notifier {
  /**
   * Queues the message in the durable `message_queue` table; a worker sends it after the request has
   * answered, retrying with back-off, so neither a slow nor a failing provider shows in the answer (nor
   * in its timing). To the outbox adapter, the message is written at once (same transaction).
   */
  enqueue(message: OutboundMessage, options?: EnqueueOptions): Promise<void>;
  /**
   * Delivers the message before resolving, and throws DeliveryError when the provider fails: for the
   * few answers that must say whether it went (a customer's message to the insurer's inbox, a sign-in
   * code). Logs with the recipient masked and never the text.
   */
  sendNow(message: OutboundMessage, log?: NotifyLog): Promise<void>;
}

/**
 * Delivery failed at the provider; the caller decides what the customer sees. `permanent`: the provider
 * refused the message for good (an SMTP 5xx): sending it again would fail again, so the queue gives it
 * up at once.
 */
export class DeliveryError extends Error {
  readonly permanent: boolean;
  constructor(message: string, options: { permanent?: boolean } = {}) {
    super(message);
    this.permanent = options.permanent ?? false;
  }
}

/** A queued message given up: refused for good, or still failing after the last attempt. */
export interface UndeliverableMessage {
  kind: string;
  reference: string | null;
  customerId: string | null;
  /** `refused`: the provider refused it for good; `gave-up`: it failed at every attempt. */
  reason: 'refused' | 'gave-up';
}

/** Digits of a phone number, or a trimmed lower-case email: how the outbox files and finds messages. */
export function normaliseRecipient(to: string): string {
  const value = to.trim();
  if (value.includes('@')) return value.toLowerCase();
  const digits = value.replace(/\D/g, '');
  // +44 7700 900123 and 07700 900123 are the same phone.
  return digits.startsWith('44') && digits.length === 12 ? `0${digits.slice(2)}` : digits;
}

/** A recipient safe for logs: the last 3 digits of a phone number, or the first letter and domain of an email. */
export function maskRecipient(to: string): string {
  const value = normaliseRecipient(to);
  if (value.includes('@')) {
    const [local = '', domain = ''] = value.split('@');
    return `${local.slice(0, 1)}***@${domain}`;
  }
  return `***${value.slice(-3)}`;
}
