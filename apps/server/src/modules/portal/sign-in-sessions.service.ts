import type { SignInSession } from '@portal/contracts/sign-in-sessions';
import { writeAudit } from '../../platform/audit';
import type { AuthenticatedCustomer } from '../../platform/auth-guard';
import { counterStore } from '../../platform/counters';
import { HttpError, notFound } from '../../platform/errors';
import type { RequestMeta } from '../identity';
import type { PortalContext } from './context';

/** Sign-outs (one session, or every other) a customer may ask for in SIGN_OUT_WINDOW_MS, every instance. */
const SIGN_OUT_LIMIT = 30;
const SIGN_OUT_WINDOW_MS = 15 * 60_000;

interface Caller {
  customer: AuthenticatedCustomer;
  sessionId: string | null;
  correlationId: string;
}

/**
 * "Where you're signed in" (issue 26 point 3, decision 025): the customer's live sessions, and signing
 * one or every other out. Ending a session deletes its grant, every token of it and its provider session
 * in one transaction with the audit row (`session.ended`, {scope, count}); the customer guard then
 * refuses its access tokens on every instance within its one-second check. No recent password check:
 * signing others out protects the customer, and must be quick when they fear someone else is in.
 */
export function createSignInSessionsService(ctx: PortalContext) {
  const limit = async (customerId: string) => {
    const decision = await (
      await counterStore(ctx)
    ).take(`sign-out-sessions:${customerId}`, SIGN_OUT_LIMIT, SIGN_OUT_WINDOW_MS);
    if (!decision.allowed) {
      throw new HttpError(
        429,
        'TOO_MANY_REQUESTS',
        'Too many sign-outs. Please wait and try again.',
        undefined,
        { 'Retry-After': String(decision.retryAfterSeconds) },
      );
    }
  };

  const audit = (caller: Caller, scope: 'one' | 'others', count: number) => ({
    source: 'server' as const,
    eventId: 'session.ended',
    customerId: caller.customer.customerId,
    onBehalfOf: caller.customer.onBehalfOf,
    sessionId: caller.sessionId,
    correlationId: caller.correlationId,
    isSuccess: true,
    occurredAt: ctx.clock.now(),
    details: { scope, count },
  });

  return {
    async list(customer: AuthenticatedCustomer): Promise<{ sessions: SignInSession[] }> {
      const rows = await ctx.services.oidc.signInSessions.list(customer.customerId, ctx.clock.now());
      return {
        sessions: rows.map((r) => ({
          id: r.id,
          browser: r.browser,
          os: r.os,
          network: r.network,
          signedInAt: r.startedAt.toISOString(),
          lastUsedAt: r.lastUsedAt.toISOString(),
          thisDevice: r.grantId === customer.grantId,
          ...(r.viewerName ? { viewer: r.viewerName } : {}),
        })),
      };
    },

    async endOne(caller: Caller, sessionId: string): Promise<{ ended: number }> {
      await limit(caller.customer.customerId);
      const ended = await ctx.db.transaction(async (tx) => {
        const found = await ctx.services.oidc.signInSessions.grantOf(caller.customer.customerId, sessionId);
        // Only the customer's own identity user's grants: another's id is as unknown as a made-up one.
        if (!found || found.accountId !== caller.customer.sub) return false;
        if (!(await ctx.services.oidc.signInSessions.end(tx, found.accountId, found.grantId))) return false;
        // Ending the contact centre's view of the account is said as such in the activity (issue 41).
        if (found.viewerName) {
          await writeAudit(tx, {
            ...audit(caller, 'one', 1),
            eventId: 'screen_share.ended',
            details: { by: 'customer' },
          });
        } else await writeAudit(tx, audit(caller, 'one', 1));
        return true;
      });
      if (!ended) throw notFound();
      return { ended: 1 };
    },

    /**
     * The contact centre signs the customer out everywhere (issue 41 point 5): every session, grant and
     * token of their account ends, audited as the customer's own sign-outs are (`session.ended`, scope
     * `all`) with the staff member and reason of `meta.agent`. Nothing is written when none was live.
     */
    async endAllFor(customerId: string, meta: RequestMeta): Promise<{ ended: number }> {
      const user = await ctx.services.identity.getUserByCustomerId(customerId);
      if (!user) return { ended: 0 };
      const ended = await ctx.db.transaction(async (tx) => {
        const count = await ctx.services.oidc.signInSessions.endOthers(tx, user.id, null);
        if (count === 0) return 0;
        await writeAudit(tx, {
          source: 'server',
          eventId: 'session.ended',
          customerId,
          onBehalfOf: meta.agent?.onBehalfOf ?? null,
          sessionId: meta.sessionId ?? null,
          correlationId: meta.correlationId ?? null,
          isSuccess: true,
          occurredAt: ctx.clock.now(),
          details: { scope: 'all', count, ...(meta.agent ? { reason: meta.agent.reason } : {}) },
        });
        return count;
      });
      return { ended };
    },

    async endOthers(caller: Caller): Promise<{ ended: number }> {
      await limit(caller.customer.customerId);
      const ended = await ctx.db.transaction(async (tx) => {
        const count = await ctx.services.oidc.signInSessions.endOthers(
          tx,
          caller.customer.sub,
          caller.customer.grantId ?? null,
        );
        await writeAudit(tx, audit(caller, 'others', count));
        return count;
      });
      return { ended };
    },
  };
}
export type SignInSessionsService = ReturnType<typeof createSignInSessionsService>;
