import { before, DAY_MS, EXPIRED_GRACE_MS, type HousekeepingTask } from '../../platform/housekeeping-task';

/** What housekeeping deletes of the staff module's tables once past their time. */
export const staffHousekeeping = [
  {
    // Sessions a day after they ended or ran out (their sign-ins stay in the audit trail).
    kind: 'staffSessions',
    cutoff: (now) => before(now, EXPIRED_GRACE_MS),
    sql: `DELETE FROM staff_session WHERE id_hash IN
            (SELECT id_hash FROM staff_session WHERE coalesce(ended_at, expires_at) < $1 LIMIT $2)`,
  },
  {
    // Sign-ins never finished (they are good for ten minutes).
    kind: 'staffSignIns',
    cutoff: (now) => before(now, DAY_MS),
    sql: `DELETE FROM staff_sign_in WHERE state IN (SELECT state FROM staff_sign_in WHERE created_at < $1 LIMIT $2)`,
  },
] as const satisfies readonly HousekeepingTask[];
