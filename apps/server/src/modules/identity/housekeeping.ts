import { before, EXPIRED_GRACE_MS, type HousekeepingTask } from '../../platform/housekeeping-task';

/**
 * What housekeeping deletes of the identity module's tables: sign-in state a day past its expiry, in
 * this order (one-time codes before the transactions they belong to, which would take them along).
 */
export const identityHousekeeping = [
  {
    kind: 'oneTimeCodes',
    cutoff: (now) => before(now, EXPIRED_GRACE_MS),
    sql: `DELETE FROM identity_code WHERE id IN (SELECT id FROM identity_code WHERE expires_at < $1 LIMIT $2)`,
  },
  {
    kind: 'signInTransactions',
    cutoff: (now) => before(now, EXPIRED_GRACE_MS),
    sql: `DELETE FROM identity_transaction WHERE id IN
            (SELECT id FROM identity_transaction WHERE expires_at < $1 LIMIT $2)`,
  },
  {
    kind: 'sessionTokens',
    cutoff: (now) => before(now, EXPIRED_GRACE_MS),
    sql: `DELETE FROM identity_session_token WHERE token_hash IN
            (SELECT token_hash FROM identity_session_token WHERE expires_at < $1 LIMIT $2)`,
  },
  {
    kind: 'linkTokens',
    cutoff: (now) => before(now, EXPIRED_GRACE_MS),
    sql: `DELETE FROM identity_link_token WHERE token_hash IN
            (SELECT token_hash FROM identity_link_token WHERE expires_at < $1 LIMIT $2)`,
  },
  {
    // Expired passkey challenges: nothing can use them any more (the consuming DELETE checks the expiry).
    kind: 'webauthnChallenges',
    cutoff: (now) => now,
    sql: `DELETE FROM identity_webauthn_challenge WHERE challenge IN
            (SELECT challenge FROM identity_webauthn_challenge WHERE expires_at < $1 LIMIT $2)`,
  },
  {
    // Email and mobile changes whose code expired over a day ago (used, replaced or never confirmed): the
    // new address or number they hold is personal data with no use left (decision 026). The 30 seconds
    // between sends read the newest row, always far younger.
    kind: 'contactChanges',
    cutoff: (now) => before(now, EXPIRED_GRACE_MS),
    sql: `DELETE FROM identity_contact_change WHERE id IN
            (SELECT id FROM identity_contact_change WHERE expires_at < $1 LIMIT $2)`,
  },
] as const satisfies readonly HousekeepingTask[];
