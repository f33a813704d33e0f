import type { Queryable } from '../../platform/db';

/**
 * Ends every sign-in session, grant and token of an identity user except those of `keepGrantId` (the
 * session that made the change), so refresh tokens elsewhere stop working. Answers how many grants ended.
 */
export async function endOtherSessions(
  q: Queryable,
  accountId: string,
  keepGrantId: string | null,
): Promise<number> {
  const grants = await q.query<{ id: string }>(
    `SELECT id FROM oidc_payload WHERE model = 'Grant' AND payload->>'accountId' = $1 AND ($2::text IS NULL OR id <> $2)`,
    [accountId, keepGrantId],
  );
  const ids = grants.rows.map((r) => r.id);
  if (ids.length > 0) {
    await q.query(
      `DELETE FROM oidc_payload WHERE grant_id = ANY($1::text[]) OR (model = 'Grant' AND id = ANY($1::text[]))`,
      [ids],
    );
  }
  // The account's sign-in sessions, but for the one that holds the kept grant.
  await q.query(
    `DELETE FROM oidc_payload s WHERE s.model = 'Session' AND s.payload->>'accountId' = $1
       AND NOT EXISTS (SELECT 1 FROM jsonb_each(coalesce(s.payload->'authorizations', '{}'::jsonb)) a
                        WHERE a.value->>'grantId' = $2)`,
    [accountId, keepGrantId],
  );
  return ids.length;
}
