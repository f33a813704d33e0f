import type { RevocationsPort, SessionState } from '../../platform/revocations';
import type { OidcContext } from './context';

/** The channel a deleted grant is announced on (migration 150), its ids comma-separated. */
const GRANT_ENDED_CHANNEL = 'oidc_grant_ended';

/**
 * Whether a customer's sign-in lives, for the token guard (decision 005, amended by issues 26 and 38): a
 * sign-in is a grant of the provider, `ended` once its row is gone (every way a session ends deletes it),
 * `expired` once past its time; its ending is announced to every instance as it commits.
 */
export function oidcRevocations(ctx: OidcContext): RevocationsPort {
  return {
    async sessionState(grantId, now): Promise<SessionState> {
      const { rows } = await ctx.db.query<{ expires_at: Date | null }>(
        `SELECT expires_at FROM oidc_payload WHERE model = 'Grant' AND id = $1`,
        [grantId],
      );
      const row = rows[0];
      if (!row) return 'ended';
      return row.expires_at && row.expires_at.getTime() <= now.getTime() ? 'expired' : 'live';
    },

    /**
     * "Last used" of the session under "Where you're signed in" (decision 025). The UPDATE itself skips a
     * row moved on in the last minute, so several instances write little more; a failure only leaves the
     * time older: it is logged by nobody and never refuses the request.
     */
    async noteUse(grantId, now) {
      await ctx.db
        .query(
          `UPDATE portal_sign_in_session SET last_used_at = $2
            WHERE grant_id = $1 AND last_used_at < $2::timestamptz - interval '1 minute'`,
          [grantId, now],
        )
        .catch(() => undefined);
    },

    async watch(onEnded, onGap) {
      if (!ctx.db.listen) return undefined;
      return ctx.db.listen(
        GRANT_ENDED_CHANNEL,
        (payload) => onEnded(payload.split(',').filter((id) => id !== '')),
        onGap,
      );
    },
  };
}
