import type { FastifyInstance, FastifyReply } from 'fastify';
import { getStaffSessionCall, getStaffSessionStatusCall, staffSignOutCall } from '@portal/contracts/staff';
import { writeAudit } from '../../platform/audit';
import { HttpError } from '../../platform/errors';
import { route } from '../../platform/route';
import type { StaffMember } from '../../platform/staff-guard';
import type { StaffContext } from './context';
import { sessionEnds, type StaffSessionStore } from './sessions';
import { clearedStaffCookie } from './sign-in';

/** The console's own calls: who is signed in (with the CSRF token), and signing out. */
export async function staffRoutes(app: FastifyInstance, ctx: StaffContext, sessions: StaffSessionStore) {
  const answer = async (staff: StaffMember, reply: FastifyReply, passive: boolean) => {
    const row = await sessions.read(staff, { passive });
    if (!row) throw new HttpError(401, 'STAFF_SESSION_REQUIRED', 'Sign in to the staff console to continue.');
    reply.header('cache-control', 'no-store');
    const ends = sessionEnds(ctx, row);
    return {
      name: row.name,
      email: row.email,
      roles: row.roles,
      csrfToken: row.csrfToken,
      idleExpiresAt: ends.idleExpiresAt.toISOString(),
      expiresAt: ends.expiresAt.toISOString(),
      sharedViewCode: ctx.config.staff.sharedViewCode,
    };
  };
  route(app, getStaffSessionCall, ({ staff, reply }) => answer(staff!, reply, false));
  // The console's own check when its idle time seems over: not activity, so it never keeps a session alive.
  route(app, getStaffSessionStatusCall, ({ staff, reply }) => answer(staff!, reply, true));

  route(app, staffSignOutCall, async ({ staff, reply }) => {
    await sessions.end(staff!);
    await writeAudit(ctx.db, {
      source: 'server',
      eventId: 'staff.signout',
      onBehalfOf: `staff:${staff!.subject}`,
      sessionId: staff!.sessionId,
      isSuccess: true,
      occurredAt: ctx.clock.now(),
    });
    reply.header('set-cookie', clearedStaffCookie(ctx));
    return reply.code(204).send();
  });
}
