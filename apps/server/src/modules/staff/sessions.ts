import { createHash, randomBytes } from 'node:crypto';
import type { StaffRole } from '@portal/contracts/call';
import type { StaffMember, StaffSessions } from '../../platform/staff-guard';
import type { StaffContext } from './context';
import { endSession, insertSession, touchSession, type StaffSessionRow } from './sessions.repository';

/** The stored id of a session: the SHA-256 of the cookie's random value (a database read gives no cookie). */
const sessionIdOf = (cookieValue: string) => createHash('sha256').update(cookieValue).digest('hex');

const memberOf = (row: StaffSessionRow): StaffMember => ({
  sessionId: row.idHash,
  subject: row.subject,
  name: row.name,
  email: row.email,
  roles: row.roles,
  csrfToken: row.csrfToken,
});

/** The session's two ends: idle (from its last call) and absolute (from sign-in). */
export function sessionEnds(ctx: StaffContext, row: Pick<StaffSessionRow, 'lastSeenAt' | 'expiresAt'>) {
  const idle = new Date(row.lastSeenAt.getTime() + ctx.config.staff.idleMs);
  return { idleExpiresAt: idle < row.expiresAt ? idle : row.expiresAt, expiresAt: row.expiresAt };
}

export function createStaffSessions(ctx: StaffContext) {
  const sessions: StaffSessions & {
    start(who: {
      subject: string;
      issuer: string;
      name: string;
      email: string;
      roles: StaffRole[];
    }): Promise<{ cookieValue: string; row: StaffSessionRow }>;
    end(member: StaffMember): Promise<void>;
    read(member: StaffMember, options?: { passive?: boolean }): Promise<StaffSessionRow | null>;
  } = {
    async start(who) {
      const cookieValue = randomBytes(32).toString('base64url');
      const now = ctx.clock.now();
      const row: StaffSessionRow = {
        idHash: sessionIdOf(cookieValue),
        ...who,
        csrfToken: randomBytes(24).toString('base64url'),
        createdAt: now,
        lastSeenAt: now,
        expiresAt: new Date(now.getTime() + ctx.config.staff.maxMs),
      };
      await insertSession(ctx.db, row);
      return { cookieValue, row };
    },

    async verify(cookieValue, options = {}) {
      if (!/^[A-Za-z0-9_-]{43}$/.test(cookieValue)) return null;
      const row = await touchSession(
        ctx.db,
        sessionIdOf(cookieValue),
        ctx.clock.now(),
        ctx.config.staff.idleMs,
        options.passive !== true,
      );
      return row ? memberOf(row) : null;
    },

    async read(member, options = {}) {
      return touchSession(
        ctx.db,
        member.sessionId,
        ctx.clock.now(),
        ctx.config.staff.idleMs,
        options.passive !== true,
      );
    },

    async end(member) {
      await endSession(ctx.db, member.sessionId, ctx.clock.now());
    },
  };
  return sessions;
}
export type StaffSessionStore = ReturnType<typeof createStaffSessions>;
