import type { AuditEvent } from '@portal/contracts/eventlog';
import { writeAuditRows, type AuditRow } from '../../platform/audit';
import { groupCommit } from '../../platform/group-commit';
import { badRequest, tooManyRequests } from '../../platform/errors';
import { metricsOf } from '../../platform/metrics';
import type { PlatformContext } from '../../platform/module';
import { counterStore, type TakeItem } from '../../platform/counters';

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

export function createEventlogService(ctx: PlatformContext) {
  const { db, clock, config } = ctx;
  const metrics = metricsOf(ctx);

  /**
   * The SPA's events change no state of ours, so each needs no transaction of its own: they are
   * appended by group commit (decision 015). A batch is one transaction (on the database counter
   * store): the rate-limit counts of every post in it, then one INSERT of the posts within their
   * limits. Each post is answered once that has committed: with the seconds to wait when it was over a
   * limit, else 0 (stored).
   */
  const queue = groupCommit<{ row: AuditRow; buckets: TakeItem[] }, number>({
    ...config.auditQueue,
    // The embedded database is one session: a second batch would only wait for the first.
    maxInFlight: db.kind === 'postgres' ? config.auditQueue.maxInFlight : 1,
    onBatch: (size) => metrics.auditBatchSize.observe(size),
    write: async (posts) => {
      const store = await counterStore(ctx);
      return store.takeAll(
        posts.flatMap((post) => post.buckets),
        async (decisions, tx) => {
          let at = 0;
          const retryAfter = posts.map((post) => {
            const own = decisions.slice(at, (at += post.buckets.length));
            return Math.max(0, ...own.map((d) => (d.allowed ? 0 : d.retryAfterSeconds)));
          });
          await writeAuditRows(
            tx ?? db,
            posts.filter((_, i) => retryAfter[i] === 0).map((post) => post.row),
          );
          return retryAfter;
        },
      );
    },
  });
  metrics.watchAuditQueue(() => queue.waiting());

  /** The limits a post counts against: one-minute windows, keys in the event log's own space. */
  const buckets = (list: Array<[key: string, max: number]>): TakeItem[] =>
    list.map(([key, max]) => ({ key: `eventlog:${key}`, limit: max, windowMs: rateWindowMs }));

  return {
    /**
     * Checks who may record the event, applies the rate limits and appends it to the audit trail.
     * The customer and on-behalf-of ids stored are the token's, never only the body's.
     */
    async record(event: AuditEvent, facts: RequestFacts): Promise<void> {
      const claimedCustomer = blank(event.customerId);
      const claimedOnBehalfOf = blank(event.onBehalfOf);
      const caller = facts.caller;
      let limits: TakeItem[];

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
        limits = buckets([
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
        limits = buckets([
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

      const row: AuditRow = {
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
      };
      // Counted and stored together, once the batch holding it commits; nothing is counted when the
      // queue is full (503).
      const retryAfter = await queue.submit({ row, buckets: limits });
      if (retryAfter > 0) throw tooManyRequests(retryAfter);
    },

    /** Stops taking events and resolves once every event already accepted is committed (or failed). */
    close: () => queue.close(),
  };
}

export type EventlogService = ReturnType<typeof createEventlogService>;
