import { createHash, randomBytes, randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import {
  SHARE_CODE_TTL_MINUTES,
  SHARED_VIEW_MAX_MINUTES,
  type ShareCode,
  type SharedViewSession,
} from '@portal/contracts/screen-share';
import type { StaffSharedViewLink } from '@portal/contracts/staff-shared-view';
import { writeAudit } from '../../platform/audit';
import type { AuthenticatedCustomer } from '../../platform/auth-guard';
import { counterStore } from '../../platform/counters';
import type { Queryable } from '../../platform/db';
import { HttpError } from '../../platform/errors';
import type { HousekeepingTask } from '../../platform/housekeeping-task';
import type { PortalContext } from './context';

/*
 * "Share your screen with us" (issue 41 point 6, decision 039): the customer's one-time code, the view the
 * contact centre opens with it, and that view's pages and end. The code and the link's ticket are kept
 * only as hashes; a code is good for ten minutes and one use, five wrong tries void it, and a staff
 * member may try only so many wrong codes in ten minutes on every instance. The view is a sign-in of its
 * own (the oidc module's grant): read only, 30 minutes at most, under "Where you're signed in" with the
 * staff member's name, where the customer can end it. Every step is audited; the customer's account
 * activity shows it (activity.ts). Nothing here logs a code, a ticket, a reason or a name.
 */

/** Codes a customer may make in an hour (each replaces the last). */
const CODES_PER_HOUR = 10;
/** Wrong tries that void a code. */
const WRONG_TRIES_PER_CODE = 5;
/** Wrong codes a staff member may give in ten minutes, on every instance. */
const WRONG_CODES_PER_STAFF = 10;
const STAFF_WINDOW_MS = 10 * 60_000;
/** How long the link the agent is given works (it is opened at once, in a new tab). */
const LINK_TTL_MS = 2 * 60_000;
/** Pages one view may record (a view lasts 30 minutes at most). */
const PAGES_PER_VIEW = 300;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const codeHash = (customerId: string, code: string) => sha256(`share-code:${customerId}:${code}`);
const ticketHash = (ticket: string) => sha256(`shared-view-ticket:${ticket}`);

const sameHash = (a: string, b: string) =>
  a.length === b.length && timingSafeEqual(Buffer.from(a, 'hex'), Buffer.from(b, 'hex'));

interface CustomerCaller {
  customer: AuthenticatedCustomer;
  sessionId: string | null;
  correlationId: string;
}

/** The staff member asking, as the staff module hands them over. */
export interface SharedViewStaff {
  subject: string;
  name: string;
  sessionId: string;
  reason: string;
  correlationId: string;
}

const tooMany = (message: string, retryAfterSeconds: number) =>
  new HttpError(429, 'TOO_MANY_REQUESTS', message, undefined, { 'Retry-After': String(retryAfterSeconds) });

const notAView = () =>
  new HttpError(403, 'NOT_A_SHARED_VIEW', 'This call is only for the contact centre’s read-only view.');

export function createSharedViewService(ctx: PortalContext) {
  const now = () => ctx.clock.now();
  const take = async (key: string, limit: number, windowMs: number) =>
    (await counterStore(ctx)).take(key, limit, windowMs);

  return {
    /** A new code for the signed-in customer; any earlier one stops working. */
    async createCode(caller: CustomerCaller): Promise<ShareCode> {
      const { customerId } = caller.customer;
      const decision = await take(`share-code:${customerId}`, CODES_PER_HOUR, 60 * 60_000);
      if (!decision.allowed)
        throw tooMany(
          'You have asked for a lot of codes. Please wait and try again.',
          decision.retryAfterSeconds,
        );
      const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
      const at = now();
      const expiresAt = new Date(at.getTime() + SHARE_CODE_TTL_MINUTES * 60_000);
      await ctx.db.transaction(async (tx) => {
        await tx.query(
          `INSERT INTO portal_share_code (customer_id, code_hash, failed_attempts, created_at, expires_at)
           VALUES ($1, $2, 0, $3, $4)
           ON CONFLICT (customer_id) DO UPDATE SET code_hash = EXCLUDED.code_hash, failed_attempts = 0,
             created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at`,
          [customerId, codeHash(customerId, code), at, expiresAt],
        );
        await writeAudit(tx, {
          source: 'server',
          eventId: 'screen_share.code.created',
          customerId,
          onBehalfOf: caller.customer.onBehalfOf,
          sessionId: caller.sessionId,
          correlationId: caller.correlationId,
          isSuccess: true,
          occurredAt: at,
          details: { expiresAt: expiresAt.toISOString() },
        });
      });
      return { code, expiresAt: expiresAt.toISOString() };
    },

    /**
     * The contact centre asks to see what the customer sees (the staff module has checked the role and
     * that the record exists): the code is checked and used up (unless codes are off and none is given),
     * and the answer is a one-time link to open in a new tab.
     */
    async start(
      staff: SharedViewStaff,
      customerId: string,
      code: string | undefined,
    ): Promise<StaffSharedViewLink> {
      const user = await ctx.services.identity.getUserByCustomerId(customerId);
      if (!user || user.status !== 'ACTIVE') {
        throw new HttpError(
          409,
          'NO_ONLINE_ACCOUNT',
          'This customer has no online account in use, so there is nothing to view.',
        );
      }
      const needsCode = ctx.config.staff.sharedViewCode === 'required';
      if (needsCode && code === undefined) {
        throw new HttpError(422, 'SHARE_CODE_REQUIRED', 'Ask the customer for the code on their screen.', {
          code: 'Enter the 6-digit code the customer reads out',
        });
      }
      const at = now();
      const viewId = randomUUID();
      const ticket = randomBytes(32).toString('base64url');
      const linkExpiresAt = new Date(at.getTime() + LINK_TTL_MS);
      const viewEndsAt = new Date(at.getTime() + SHARED_VIEW_MAX_MINUTES * 60_000);
      const audit = (q: Queryable, isSuccess: boolean, details: Record<string, unknown>, failure?: string) =>
        writeAudit(q, {
          source: 'server',
          eventId: 'screen_share.started',
          customerId,
          onBehalfOf: `staff:${staff.subject}`,
          sessionId: staff.sessionId,
          correlationId: staff.correlationId,
          isSuccess,
          failureReason: failure ?? null,
          occurredAt: at,
          details: { reason: staff.reason, ...details },
        });

      const outcome = await ctx.db.transaction(async (tx) => {
        if (code !== undefined) {
          const { rows } = await tx.query<{ code_hash: string; failed_attempts: number; expires_at: Date }>(
            'SELECT code_hash, failed_attempts, expires_at FROM portal_share_code WHERE customer_id = $1 FOR UPDATE',
            [customerId],
          );
          const held = rows[0];
          const live = held && new Date(held.expires_at).getTime() > at.getTime();
          if (!live || !sameHash(held.code_hash, codeHash(customerId, code))) {
            if (live) {
              // A wrong try counts against the code; enough of them void it.
              if (held.failed_attempts + 1 >= WRONG_TRIES_PER_CODE)
                await tx.query('DELETE FROM portal_share_code WHERE customer_id = $1', [customerId]);
              else
                await tx.query(
                  'UPDATE portal_share_code SET failed_attempts = failed_attempts + 1 WHERE customer_id = $1',
                  [customerId],
                );
            }
            await audit(tx, false, { code: live ? 'wrong' : 'none' }, 'SHARE_CODE_WRONG');
            return 'wrong' as const;
          }
          // One use.
          await tx.query('DELETE FROM portal_share_code WHERE customer_id = $1', [customerId]);
        }
        await tx.query(
          `INSERT INTO portal_shared_view (id, customer_id, staff_subject, staff_name, reason, ticket_hash,
             ticket_expires_at, created_at, expires_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
          [
            viewId,
            customerId,
            staff.subject,
            staff.name,
            staff.reason,
            ticketHash(ticket),
            linkExpiresAt,
            at,
            viewEndsAt,
          ],
        );
        await audit(tx, true, { viewId, withCode: code !== undefined, endsAt: viewEndsAt.toISOString() });
        return 'started' as const;
      });

      if (outcome === 'wrong') {
        const decision = await take(
          `shared-view-wrong:${staff.subject}`,
          WRONG_CODES_PER_STAFF,
          STAFF_WINDOW_MS,
        );
        if (!decision.allowed)
          throw tooMany('Too many wrong codes. Please wait before trying again.', decision.retryAfterSeconds);
        throw new HttpError(
          422,
          'SHARE_CODE_WRONG',
          'That code is not right, or it has expired or been used. Ask the customer to get a new code.',
          { code: 'The code is not right, or it has expired' },
        );
      }
      return {
        url: `${ctx.config.publicUrl}/account/shared-view#ticket=${ticket}`,
        linkExpiresAt: linkExpiresAt.toISOString(),
        viewEndsAt: viewEndsAt.toISOString(),
      };
    },

    /** The link opened: its ticket, once, for the view's read-only token. */
    async open(
      ticket: string,
      request: { userAgent: string | undefined; address: string | undefined; correlationId: string },
    ): Promise<SharedViewSession> {
      const at = now();
      const session = await ctx.db.transaction(async (tx) => {
        const { rows } = await tx.query<{
          id: string;
          customer_id: string;
          staff_subject: string;
          staff_name: string;
          expires_at: Date;
        }>(
          `UPDATE portal_shared_view SET ticket_hash = NULL, ticket_expires_at = NULL
            WHERE ticket_hash = $1 AND ticket_expires_at > $2 AND expires_at > $2
            RETURNING id, customer_id, staff_subject, staff_name, expires_at`,
          [ticketHash(ticket), at],
        );
        const view = rows[0];
        if (!view) return null;
        const user = await ctx.services.identity.getUserByCustomerId(view.customer_id, tx);
        if (!user || user.status !== 'ACTIVE') return null;
        const expiresAt = new Date(view.expires_at);
        const { accessToken, grantId } = await ctx.services.oidc.openSharedView(tx, {
          accountId: user.id,
          customerId: view.customer_id,
          viewId: view.id,
          onBehalfOf: `staff:${view.staff_subject}`,
          viewerName: view.staff_name,
          expiresAt,
          userAgent: request.userAgent,
          address: request.address,
        });
        await tx.query('UPDATE portal_shared_view SET grant_id = $2 WHERE id = $1', [view.id, grantId]);
        return {
          accessToken,
          expiresAt: expiresAt.toISOString(),
          customerName: `${user.firstName} ${user.lastName}`.trim(),
          staffName: view.staff_name,
        };
      });
      if (!session) {
        throw new HttpError(
          401,
          'SHARED_VIEW_LINK_INVALID',
          'This link has expired or has already been used. Ask the customer for a new code.',
        );
      }
      return session;
    },

    /** A page the view showed, for the customer's account activity. */
    async recordPage(caller: CustomerCaller, page: { path: string; title: string }): Promise<void> {
      const view = caller.customer.sharedView;
      if (!view) throw notAView();
      const decision = await take(
        `shared-view-pages:${view.viewId}`,
        PAGES_PER_VIEW,
        SHARED_VIEW_MAX_MINUTES * 60_000,
      );
      if (!decision.allowed) return;
      await writeAudit(ctx.db, {
        source: 'server',
        eventId: 'screen_share.page',
        customerId: caller.customer.customerId,
        onBehalfOf: caller.customer.onBehalfOf,
        sessionId: caller.sessionId,
        correlationId: caller.correlationId,
        isSuccess: true,
        occurredAt: now(),
        details: { viewId: view.viewId, path: page.path, title: page.title },
      });
    },

    /** The agent closes the view: its sign-in ends, and its token is refused everywhere. */
    async end(caller: CustomerCaller): Promise<void> {
      const view = caller.customer.sharedView;
      if (!view || !caller.customer.grantId) throw notAView();
      await ctx.db.transaction(async (tx) => {
        const ended = await ctx.services.oidc.signInSessions.end(
          tx,
          caller.customer.sub,
          caller.customer.grantId!,
        );
        if (!ended) return;
        await writeAudit(tx, {
          source: 'server',
          eventId: 'screen_share.ended',
          customerId: caller.customer.customerId,
          onBehalfOf: caller.customer.onBehalfOf,
          sessionId: caller.sessionId,
          correlationId: caller.correlationId,
          isSuccess: true,
          occurredAt: now(),
          details: { viewId: view.viewId, by: 'staff' },
        });
      });
    },
  };
}
export type SharedViewService = ReturnType<typeof createSharedViewService>;

/** What housekeeping deletes: codes and views past their time (a day later, for a view). */
export const sharedViewHousekeeping = [
  {
    kind: 'shareCodes',
    cutoff: (at: Date) => at,
    sql: `DELETE FROM portal_share_code WHERE customer_id IN
            (SELECT customer_id FROM portal_share_code WHERE expires_at < $1 LIMIT $2)`,
  },
  {
    kind: 'sharedViews',
    cutoff: (at: Date) => new Date(at.getTime() - 24 * 60 * 60_000),
    sql: `DELETE FROM portal_shared_view WHERE id IN
            (SELECT id FROM portal_shared_view WHERE expires_at < $1 LIMIT $2)`,
  },
] as const satisfies readonly HousekeepingTask[];
