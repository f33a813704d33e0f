import { z } from 'zod/mini';
import { defineCall, errorEnvelope, named } from './call';
import { customerIdValue } from './common';
import { policyNumberInput } from './policy';

/**
 * The audit event the SPA sends to the event-logging service (spec access-and-session §3). Optional
 * text fields accept null or an empty string for "not applicable"; the server stores those as absent.
 */

const optionalText = (max: number) => z.optional(z.nullable(z.string().check(z.trim(), z.maxLength(max))));
const optionalFlag = z.optional(z.nullable(z.boolean()));

export const marketingChannelNames = ['email', 'online', 'phone', 'post'] as const;
export type MarketingChannelName = (typeof marketingChannelNames)[number];

/** "email,online,phone,post" or any subset of it, each at most once; "" when none was chosen. */
export const marketingChannelList = z.string().check(
  z.maxLength(40),
  z.refine(
    (value) => {
      if (value === '') return true;
      const parts = value.split(',').map((p) => p.trim());
      return (
        parts.every((p) => (marketingChannelNames as readonly string[]).includes(p)) &&
        new Set(parts).size === parts.length
      );
    },
    { message: 'Use a comma list of email, online, phone and post' },
  ),
);

export const auditEventId = z
  .string()
  .check(
    z.trim(),
    z.minLength(1, 'Enter an event id'),
    z.maxLength(100),
    z.regex(/^[A-Za-z0-9][A-Za-z0-9 ._:/-]*$/, 'Use letters, digits, spaces and . _ : / - only'),
  );

export const auditEvent = named(
  z.strictObject({
    /** Only from a signed-in session; the server takes the id from the bearer token, never from here alone. */
    customerId: z.optional(z.nullable(z.union([z.literal(''), customerIdValue]))),
    onBehalfOf: optionalText(100),
    sessionId: z
      .string()
      .check(z.regex(/^[A-Za-z0-9._:-]{1,100}$/, 'Send the session id (a UUID) from session storage')),
    eventId: auditEventId,
    isSuccess: optionalFlag,
    failureReason: optionalText(200),
    /** How the second step was done: a code by text or call, the app, a backup code, or a passkey. */
    mfaSendMethod: z.optional(z.nullable(z.enum(['sms', 'call', 'totp', 'backup_code', 'webauthn']))),
    mfaUsedForLogin: optionalFlag,
    documentName: optionalText(200),
    policyNumber: z.optional(z.nullable(z.union([z.literal(''), policyNumberInput]))),
    correspondencePreference: z.optional(z.nullable(z.enum(['paperless', 'paper']))),
    marketingChannels: z.optional(z.nullable(marketingChannelList)),
    /** The tailored online marketing flag. */
    marketingConsent: optionalFlag,
    authenticationStatus: z.enum(['Authenticated', 'Unauthenticated']),
    /** Accepted so the SPA can send its state as is; the server records only that one was present. */
    stateToken: z.optional(z.nullable(z.string().check(z.maxLength(4096)))),
  }),
  'AuditEvent',
);
export type AuditEvent = z.infer<typeof auditEvent>;
export type AuditEventInput = z.input<typeof auditEvent>;

export const auditAccepted = named(z.object({ accepted: z.literal(true) }), 'AuditAccepted');

/** Failure reasons the SPA uses (spec access-and-session §8). Free text is accepted, these are the known ones. */
export const auditFailureReasons = [
  'Network communication problem',
  'Authentication failure',
  'Token expired',
] as const;

export const postAuditEventCall = defineCall({
  id: 'eventlog.audit',
  summary:
    'Records one client audit event. Without a bearer token only Unauthenticated events with no customer id are accepted, rate-limited per IP and session id.',
  service: 'eventlog',
  method: 'POST',
  path: '/api/v1/audit',
  auth: false,
  body: auditEvent,
  responses: {
    202: auditAccepted,
    400: errorEnvelope,
    401: errorEnvelope,
    429: errorEnvelope,
  },
});
