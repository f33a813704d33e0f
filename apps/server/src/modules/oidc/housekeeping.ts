import { before, DAY_MS, EXPIRED_GRACE_MS, type HousekeepingTask } from '../../platform/housekeeping-task';
import { KNOWN_BROWSER_DAYS } from './sign-in-sessions';

/** What housekeeping deletes of the oidc module's tables once past their time. */
export const oidcHousekeeping = [
  {
    // "Where you're signed in" rows of grants that have expired (a deleted grant takes its row with it).
    kind: 'signInSessions',
    cutoff: (now) => now,
    sql: `DELETE FROM portal_sign_in_session WHERE id IN
            (SELECT s.id FROM portal_sign_in_session s
               JOIN oidc_payload g ON g.model = 'Grant' AND g.id = s.grant_id
              WHERE g.expires_at < $1 LIMIT $2)`,
  },
  {
    kind: 'providerRows',
    cutoff: (now) => before(now, EXPIRED_GRACE_MS),
    sql: `DELETE FROM oidc_payload WHERE (model, id) IN
            (SELECT model, id FROM oidc_payload WHERE expires_at < $1 LIMIT $2)`,
  },
  {
    // Browsers not seen on an account for 90 days: a sign-in from one is news again (decision 025).
    kind: 'knownBrowsers',
    cutoff: (now) => before(now, KNOWN_BROWSER_DAYS * DAY_MS),
    sql: `DELETE FROM portal_known_browser WHERE (customer_id, browser_key) IN
            (SELECT customer_id, browser_key FROM portal_known_browser WHERE last_seen_at < $1 LIMIT $2)`,
  },
] as const satisfies readonly HousekeepingTask[];
