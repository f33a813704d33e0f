import { z } from 'zod/mini';
import { defineCall, errorEnvelope, named } from '../call';
import { isoDateTime } from '../common';

/**
 * The customers' changes out (docs/integration.md): what a customer changes in the portal that the
 * insurer's systems must know. Each change is recorded as an event in the transaction that made it, then
 * sent to every configured receiver as a signed webhook (Standard Webhooks: headers webhook-id,
 * webhook-timestamp and webhook-signature; body `{type, timestamp, data}`) and kept in a pull feed.
 * Every `data` names the customer and the instant of the change (`at`).
 */

const customerId = z.string().check(z.minLength(1));

/** A marketing channel's answer: true, false, or null when the customer has never answered it. */
const consentAnswer = z.nullable(z.boolean());
const marketingChannel = z.enum(['email', 'phone', 'post', 'online']);

/**
 * The consent record of a marketing choice. `journey` says where it was made: `registration` is the
 * first-sign-in step (the customer had never answered the online channel), `preferences` the
 * preferences page afterwards. `changed` lists the channels whose answer differs from before (empty when
 * the customer confirmed the same choice).
 */
const marketingUpdated = z.object({
  customerId,
  marketing: z.object({
    email: consentAnswer,
    phone: consentAnswer,
    post: consentAnswer,
    online: consentAnswer,
  }),
  changed: z.array(marketingChannel),
  journey: z.enum(['registration', 'preferences']),
  channel: z.literal('portal'),
  at: isoDateTime,
});

/** Paper or paperless correspondence: the choice now and the one before. */
const correspondenceUpdated = z.object({
  customerId,
  paperless: z.boolean(),
  previous: z.boolean(),
  at: isoDateTime,
});

/** A message sent through contact us: what it is about and what it says. */
const contactSent = z.object({
  customerId,
  /** The portal's id of the stored message. */
  messageId: z.string(),
  productType: z.string(),
  messageType: z.string(),
  messageText: z.string(),
  at: isoDateTime,
});

/** The customer finished registering: their sign-in address is now `email`. */
const registrationCompleted = z.object({ customerId, email: z.string(), at: isoDateTime });

/** The customer changed their email address, which is also their sign-in name (decision 026). */
const emailChanged = z.object({
  customerId,
  email: z.string(),
  previous: z.nullable(z.string()),
  at: isoDateTime,
});

/** The customer changed or added (previous null) their mobile number (decision 026). */
const mobileChanged = z.object({
  customerId,
  mobileNumber: z.nullable(z.string()),
  previous: z.nullable(z.string()),
  at: isoDateTime,
});

/** The customer closed their online account; their record and policies stay (decision 026). */
const accountClosed = z.object({ customerId, at: isoDateTime });

/**
 * A document (or message) a notice was about: its id (a billing document's, a pack's or quote's
 * document's, or a customer message's) and kind.
 */
const noticedDocument = z.object({
  documentId: z.string(),
  /** bill, policy (a document of a policy pack), quote, or message (a customer message in "Your messages"). */
  category: z.enum(['bill', 'policy', 'quote', 'message']),
  /** The document's kind as loaded (statement, schedule, certificate, quote_summary, ...); a message's category. */
  kind: z.string(),
  /** new, or updated: a changed version of a document already held. */
  change: z.enum(['new', 'updated']),
});

/** How a notice went: by email, or by text message. */
const noticeChannel = z.enum(['email', 'sms']);

/**
 * The customer was told by email that these documents are in their online account (issue 40: the
 * durable-medium notice of a paperless customer). `at` is when the email was queued.
 */
const documentNotified = z.object({
  customerId,
  documents: z.array(noticedDocument),
  /** email, or sms: a text message to the mobile on record (the customer chose it in their preferences). */
  channel: noticeChannel,
  at: isoDateTime,
});

/**
 * A notice could not be delivered: `refused` (the mail server refused it for good) or `gave-up` (it
 * failed at every attempt). Send these documents on paper.
 */
const noticeFailed = z.object({
  customerId,
  documents: z.array(noticedDocument),
  channel: noticeChannel,
  reason: z.enum(['refused', 'gave-up']),
  at: isoDateTime,
});

/**
 * The customer changed how they are told of new documents and messages (issue 40): by email (always on
 * while paperless) and by text message to their mobile. Both as now in effect, and as before.
 */
const noticesUpdated = z.object({
  customerId,
  email: z.boolean(),
  text: z.boolean(),
  previous: z.object({ email: z.boolean(), text: z.boolean() }),
  at: isoDateTime,
});

/** Every event type and the shape of its `data`. */
export const customerEventData = {
  'customer.marketing.updated': named(marketingUpdated, 'MarketingUpdatedEventData'),
  'customer.correspondence.updated': named(correspondenceUpdated, 'CorrespondenceUpdatedEventData'),
  'customer.notices.updated': named(noticesUpdated, 'NoticesUpdatedEventData'),
  'customer.contact.sent': named(contactSent, 'ContactSentEventData'),
  'customer.registration.completed': named(registrationCompleted, 'RegistrationCompletedEventData'),
  'customer.email.changed': named(emailChanged, 'EmailChangedEventData'),
  'customer.mobile.changed': named(mobileChanged, 'MobileChangedEventData'),
  'customer.account.closed': named(accountClosed, 'AccountClosedEventData'),
  'customer.document.notified': named(documentNotified, 'DocumentNotifiedEventData'),
  'customer.notice.failed': named(noticeFailed, 'NoticeFailedEventData'),
} as const;
export type CustomerEventType = keyof typeof customerEventData;
export type CustomerEventDataOf<T extends CustomerEventType> = z.infer<(typeof customerEventData)[T]>;

const eventOf = <T extends CustomerEventType>(type: T) =>
  z.object({
    /** The event's id: the webhook-id of its deliveries (a receiver drops repeats by it). */
    id: z.uuid(),
    /** Its place in the feed: pass the last one read as `after`. */
    position: z.number().check(z.int(), z.minimum(1)),
    type: z.literal(type),
    customerId,
    occurredAt: isoDateTime,
    data: customerEventData[type],
  });

/** One event of the feed. */
export const customerEvent = named(
  z.discriminatedUnion('type', [
    eventOf('customer.marketing.updated'),
    eventOf('customer.correspondence.updated'),
    eventOf('customer.notices.updated'),
    eventOf('customer.contact.sent'),
    eventOf('customer.registration.completed'),
    eventOf('customer.email.changed'),
    eventOf('customer.mobile.changed'),
    eventOf('customer.account.closed'),
    eventOf('customer.document.notified'),
    eventOf('customer.notice.failed'),
  ]),
  'CustomerEvent',
);
export type CustomerEventItem = z.infer<typeof customerEvent>;

export const MAX_FEED_LIMIT = 500;

const position = (what: string) =>
  z.coerce
    .number({ error: `Enter ${what} as a whole number` })
    .check(z.int(`Enter ${what} as a whole number`), z.minimum(0, `${what} is 0 or more`));

export const eventFeedQuery = z.strictObject({
  /** The position of the last event read; 0 (the default) reads from the start. */
  after: z._default(position('after'), 0),
  limit: z._default(
    z.coerce
      .number({ error: 'Enter a limit' })
      .check(
        z.int('Enter a whole limit'),
        z.minimum(1, 'The limit is at least 1'),
        z.maximum(MAX_FEED_LIMIT, `The limit is at most ${MAX_FEED_LIMIT}`),
      ),
    100,
  ),
});

export const eventFeed = named(
  z.object({
    /** In feed order. */
    events: z.array(customerEvent),
    /** Pass as `after` to read on (the same `after` when nothing new has happened). */
    next: z.number().check(z.int(), z.minimum(0)),
  }),
  'EventFeed',
);

const readErrors = { 400: errorEnvelope, 401: errorEnvelope, 403: errorEnvelope } as const;

export const eventFeedCall = defineCall({
  id: 'integration.events.feed',
  summary:
    'The customers’ changes in order, for systems that cannot receive webhooks: read from `after` and pass `next` on',
  service: 'integration',
  method: 'GET',
  path: '/integration/v1/events',
  auth: false,
  clientScope: 'events.read',
  query: eventFeedQuery,
  responses: { 200: eventFeed, ...readErrors },
});

export const deadLetter = named(
  z.object({
    deliveryId: z.string(),
    endpointId: z.string(),
    eventId: z.uuid(),
    type: z.string(),
    attempts: z.number(),
    /** Why the last attempt failed (no personal data: a status or a connection error). */
    lastError: z.nullable(z.string()),
    /** The receiver's HTTP status at the last attempt, null when it did not answer. */
    lastStatus: z.nullable(z.number()),
  }),
  'WebhookDeadLetter',
);

export const deadLettersCall = defineCall({
  id: 'integration.webhooks.deadLetters',
  summary: 'Webhook deliveries given up after every retry, oldest first',
  service: 'integration',
  method: 'GET',
  path: '/integration/v1/webhooks/dead-letters',
  auth: false,
  clientScope: 'events.read',
  responses: { 200: z.object({ deadLetters: z.array(deadLetter) }), ...readErrors },
});

export const retryDeadLetterCall = defineCall({
  id: 'integration.webhooks.retry',
  summary: 'Puts a dead delivery back in the queue, due now',
  service: 'integration',
  method: 'POST',
  path: '/integration/v1/webhooks/dead-letters/:deliveryId/retry',
  auth: false,
  clientScope: 'events.read',
  params: z.strictObject({
    deliveryId: z.string().check(z.regex(/^[1-9]\d{0,15}$/, 'A delivery id is a whole number')),
  }),
  responses: {
    200: z.object({ deliveryId: z.string(), status: z.literal('pending') }),
    ...readErrors,
    404: errorEnvelope,
  },
});
