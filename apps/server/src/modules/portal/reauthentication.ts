import { REAUTHENTICATION_MINUTES, REAUTHENTICATION_REQUIRED } from '@portal/contracts/sign-in-methods';
import type { AuthenticatedCustomer } from '../../platform/auth-guard';
import { writeAudit } from '../../platform/audit';
import { counterStore } from '../../platform/counters';
import { HttpError } from '../../platform/errors';
import { before, EXPIRED_GRACE_MS, type HousekeepingTask } from '../../platform/housekeeping-task';
import type { PortalContext } from './context';
import type { RequestMeta } from '../identity';

const WINDOW_MS = REAUTHENTICATION_MINUTES * 60 * 1000;
/** Password confirmations a customer may try in CONFIRM_WINDOW_MS, across every instance. */
const CONFIRM_LIMIT = 5;
const CONFIRM_WINDOW_MS = 15 * 60 * 1000;

const required = () =>
  new HttpError(403, REAUTHENTICATION_REQUIRED, 'Confirm your password to change how you sign in.');

/**
 * Step-up before a sign-in method is added or removed (or backup codes created): a bearer token alone is
 * not enough, since a token left in an unattended browser would otherwise let anyone add their own
 * authenticator. The token's sign-in session (its grant, claim `gid`) must have signed in, or confirmed
 * the password, within REAUTHENTICATION_MINUTES. Both are read from PostgreSQL, so every instance agrees.
 */
export function createReauthentication(ctx: PortalContext) {
  const { db, clock } = ctx;

  return {
    /** Throws 403 REAUTHENTICATION_REQUIRED unless the token's session is recent or recently confirmed. */
    async assertRecent(customer: AuthenticatedCustomer): Promise<void> {
      const grantId = customer.grantId;
      if (!grantId) throw required();
      const now = clock.now();
      const { rows } = await db.query<{ confirmed: boolean }>(
        `SELECT EXISTS (SELECT 1 FROM portal_reauthentication
                         WHERE grant_id = $1 AND account_id = $2 AND confirmed_until > $3) AS confirmed`,
        [grantId, customer.sub, now],
      );
      if (rows[0]?.confirmed) return;
      // Or the sign-in itself is recent: the provider's sessions are the oidc module's to read.
      const since = new Date(Math.floor((now.getTime() - WINDOW_MS) / 1000) * 1000);
      if (!(await ctx.services.oidc.signInSessions.signedInSince(grantId, customer.sub, since))) {
        throw required();
      }
    },

    /**
     * Checks the password again; when right, this session may change sign-in methods until the answer's
     * time. A wrong password counts towards the account's lockout (identity does that) and answers 400;
     * at most CONFIRM_LIMIT tries in CONFIRM_WINDOW_MS, whatever their outcome.
     */
    async confirmPassword(
      customer: AuthenticatedCustomer,
      password: string,
      meta: RequestMeta,
    ): Promise<{ confirmedUntil: string }> {
      const counters = await counterStore(ctx);
      const decision = await counters.take(
        `reauthenticate:${customer.customerId}`,
        CONFIRM_LIMIT,
        CONFIRM_WINDOW_MS,
      );
      if (!decision.allowed) {
        throw new HttpError(
          429,
          'TOO_MANY_ATTEMPTS',
          'Too many attempts. Please wait and try again.',
          undefined,
          {
            'Retry-After': String(decision.retryAfterSeconds),
          },
        );
      }
      const ok =
        (await ctx.services.identity.verifyPassword(customer.customerId, password, meta)) &&
        Boolean(customer.grantId);
      await writeAudit(db, {
        source: 'server',
        eventId: 'profile.password.confirmed',
        customerId: customer.customerId,
        onBehalfOf: customer.onBehalfOf,
        sessionId: meta.sessionId ?? null,
        correlationId: meta.correlationId ?? null,
        isSuccess: ok,
        occurredAt: clock.now(),
        ...(ok ? {} : { failureReason: 'PASSWORD_INVALID' }),
      });
      if (!ok || !customer.grantId) {
        throw new HttpError(400, 'PASSWORD_INVALID', 'That password is not right. Check it and try again.');
      }
      const until = new Date(clock.now().getTime() + WINDOW_MS);
      await db.query(
        `INSERT INTO portal_reauthentication (grant_id, account_id, confirmed_until) VALUES ($1, $2, $3)
         ON CONFLICT (grant_id) DO UPDATE SET account_id = EXCLUDED.account_id, confirmed_until = EXCLUDED.confirmed_until`,
        [customer.grantId, customer.sub, until],
      );
      return { confirmedUntil: until.toISOString() };
    },
  };
}

export type Reauthentication = ReturnType<typeof createReauthentication>;

/** What housekeeping deletes of the portal module's table: confirmations a day past their time. */
export const portalHousekeeping = [
  {
    kind: 'reauthentications',
    cutoff: (now) => before(now, EXPIRED_GRACE_MS),
    sql: `DELETE FROM portal_reauthentication WHERE grant_id IN
            (SELECT grant_id FROM portal_reauthentication WHERE confirmed_until < $1 LIMIT $2)`,
  },
] as const satisfies readonly HousekeepingTask[];
