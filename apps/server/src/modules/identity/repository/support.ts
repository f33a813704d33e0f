import type { Queryable } from '../../../platform/db';
import { dateOrNull } from './mappers';

/*
 * What the contact centre sees of an account (issue 41 point 4), in one read each: when it last signed in,
 * when its activation link was last sent, and its second factors with when each was added. Never a secret
 * column (password hash, sealed keys, passkey credentials, code hashes): each query names what it reads.
 */

export async function findAccountDates(
  q: Queryable,
  userId: string,
): Promise<{ lastLoginAt: Date | null; activationSentAt: Date | null }> {
  const { rows } = await q.query<{ last_login_at: unknown; activation_sent_at: unknown }>(
    `SELECT u.last_login_at,
       (SELECT max(created_at) FROM identity_link_token t WHERE t.user_id = u.id AND t.kind = 'activation')
         AS activation_sent_at
     FROM identity_user u WHERE u.id = $1`,
    [userId],
  );
  const row = rows[0];
  return {
    lastLoginAt: dateOrNull(row?.last_login_at),
    activationSentAt: dateOrNull(row?.activation_sent_at),
  };
}

/** The account's phone factors: type, number (the caller masks it) and when added. */
export async function listPhoneFactorDates(
  q: Queryable,
  userId: string,
): Promise<Array<{ factorType: 'sms' | 'call'; phoneNumber: string; createdAt: Date | null }>> {
  const { rows } = await q.query<{ factor_type: 'sms' | 'call'; phone_number: string; created_at: unknown }>(
    `SELECT factor_type, phone_number, created_at FROM identity_factor WHERE user_id = $1
     ORDER BY CASE factor_type WHEN 'sms' THEN 0 ELSE 1 END, is_mobile DESC, created_at, id`,
    [userId],
  );
  return rows.map((r) => ({
    factorType: r.factor_type,
    phoneNumber: r.phone_number,
    createdAt: dateOrNull(r.created_at),
  }));
}

/** The account's active authenticators by kind: how many and when the newest was added. */
export async function countActiveAuthenticators(
  q: Queryable,
  userId: string,
): Promise<Array<{ kind: 'totp' | 'webauthn' | 'backup_codes'; count: number; newestAt: Date | null }>> {
  const { rows } = await q.query<{ kind: 'totp' | 'webauthn' | 'backup_codes'; n: unknown; newest: unknown }>(
    `SELECT kind, count(*) AS n, max(coalesce(activated_at, created_at)) AS newest
     FROM identity_authenticator WHERE user_id = $1 AND status = 'ACTIVE'
     GROUP BY kind ORDER BY CASE kind WHEN 'totp' THEN 0 WHEN 'webauthn' THEN 1 ELSE 2 END`,
    [userId],
  );
  return rows.map((r) => ({ kind: r.kind, count: Number(r.n), newestAt: dateOrNull(r.newest) }));
}
