import type { FastifyInstance } from 'fastify';
import { getStaffSessionCall, staffSignOutCall } from '@portal/contracts/staff';
import { writeAudit } from '../../platform/audit';
import { HttpError } from '../../platform/errors';
import { route } from '../../platform/route';
import type { StaffContext } from './context';
import { sessionEnds, type StaffSessionStore } from './sessions';
import { clearedStaffCookie } from './sign-in';

/** The console's own calls: who is signed in (with the CSRF token), and signing out. */
export async function staffRoutes(app: FastifyInstance, ctx: StaffContext, sessions: StaffSessionStore) {
  route(app, getStaffSessionCall, async ({ staff, reply }) => {
    const row = await sessions.read(staff!);
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
    };
  });

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
