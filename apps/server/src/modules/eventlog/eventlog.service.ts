import type { AuditEvent } from '@portal/contracts/eventlog';
import { auditQueue } from '../../platform/audit';
import { badRequest, tooManyRequests } from '../../platform/errors';
import type { ModuleContext } from '../../platform/module';
import { counterStore } from '../../platform/counters';

/** One-minute sliding windows. Pre-login events are few per journey; these leave room for retries. */
export const rateWindowMs = 60_000;
export const rateLimits = {
  /** Unauthenticated posts from one IP address (a household or office may share one). */
  perIp: 60,
  /** Posts carrying one session id (one browser tab's journey). */
  perSession: 30,
  /** Posts from one signed-in customer. */
  perCustomer: 120,
} as const;

/** The signed-in customer proven by a bearer token, when the request carried one. */
export interface VerifiedCaller {
  customerId: string;
  onBehalfOf: string | null;
}

export interface RequestFacts {
  ip: string;
  correlationId: string;
  caller: VerifiedCaller | null;
}

const blank = (value: string | null | undefined): string | null =>
  value === undefined || value === null || value.trim() === '' ? null : value.trim();

export function createEventlogService(ctx: ModuleContext) {
  const { db, clock, config } = ctx;
  // Client events change no state of ours, so they need no transaction of their own: they are appended
  // by group commit, and a post is answered once its row has committed (decision 015).
  const queue = auditQueue(db, config.auditQueue);

  /**
   * Counts the post in each bucket (all in one batch of the counter store); throws 429 with Retry-After
   * when any is over its limit.
   */
  async function limit(buckets: Array<[key: string, max: number]>): Promise<void> {
    const store = await counterStore(ctx);
    const decisions = await store.takeEach(
      buckets.map(([key, max]) => ({ key: `eventlog:${key}`, limit: max, windowMs: rateWindowMs })),
    );
    const retryAfter = Math.max(0, ...decisions.map((d) => (d.allowed ? 0 : d.retryAfterSeconds)));
    if (retryAfter > 0) throw tooManyRequests(retryAfter);
  }

  return {
    /**
     * Checks who may record the event, applies the rate limits and appends it to the audit trail.
     * The customer and on-behalf-of ids stored are the token's, never only the body's.
     */
    async record(event: AuditEvent, facts: RequestFacts): Promise<void> {
      const claimedCustomer = blank(event.customerId);
      const claimedOnBehalfOf = blank(event.onBehalfOf);
      const caller = facts.caller;
      // A full queue refuses before anything is counted against the client's limits.
      queue.checkRoom();

      if (caller) {
        const fieldErrors: Record<string, string> = {};
        if (claimedCustomer !== null && claimedCustomer !== caller.customerId) {
          fieldErrors['customerId'] = 'The customer id is not the signed-in customer';
        }
        if (claimedOnBehalfOf !== null && claimedOnBehalfOf !== caller.onBehalfOf) {
          fieldErrors['onBehalfOf'] = 'The on-behalf-of id is not the signed-in one';
        }
        if (Object.keys(fieldErrors).length > 0) {
          throw badRequest('The audit event does not match the signed-in customer.', fieldErrors);
        }
        await limit([
          [`customer:${caller.customerId}`, rateLimits.perCustomer],
          [`session:${event.sessionId}`, rateLimits.perSession],
        ]);
      } else {
        const fieldErrors: Record<string, string> = {};
        if (event.authenticationStatus !== 'Unauthenticated') {
          fieldErrors['authenticationStatus'] = 'Without a bearer token the status must be Unauthenticated';
        }
        if (claimedCustomer !== null) fieldErrors['customerId'] = 'A customer id needs a bearer token';
        if (claimedOnBehalfOf !== null) fieldErrors['onBehalfOf'] = 'An on-behalf-of id needs a bearer token';
        if (Object.keys(fieldErrors).length > 0) {
          throw badRequest('The audit event is not valid without a bearer token.', fieldErrors);
        }
        await limit([
          [`ip:${facts.ip}`, rateLimits.perIp],
          [`session:${event.sessionId}`, rateLimits.perSession],
        ]);
      }

      const details: Record<string, unknown> = {
        authenticationStatus: event.authenticationStatus,
        tokenVerified: caller !== null,
      };
      const optional = {
        mfaSendMethod: event.mfaSendMethod,
        mfaUsedForLogin: event.mfaUsedForLogin,
        documentName: blank(event.documentName),
        policyNumber: blank(event.policyNumber),
        correspondencePreference: event.correspondencePreference,
        marketingChannels: event.marketingChannels ?? null,
        marketingConsent: event.marketingConsent,
      };
      for (const [key, value] of Object.entries(optional)) {
        if (value !== undefined && value !== null) details[key] = value;
      }
      // The state token is a credential for an identity transaction: record only that there was one.
      if (blank(event.stateToken) !== null) details['stateTokenPresent'] = true;

      await queue.submit({
        source: 'client',
        eventId: event.eventId,
        customerId: caller?.customerId ?? null,
        onBehalfOf: caller?.onBehalfOf ?? null,
        sessionId: event.sessionId,
        correlationId: facts.correlationId,
        isSuccess: event.isSuccess ?? null,
        failureReason: blank(event.failureReason),
        details,
        occurredAt: clock.now(),
      });
    },

    /** Stops taking events and resolves once every event already accepted is committed (or failed). */
    close: () => queue.close(),
  };
}

export type EventlogService = ReturnType<typeof createEventlogService>;
