import { randomUUID } from 'node:crypto';
import Bowser from 'bowser';
import ipaddr from 'ipaddr.js';
import type { Queryable } from '../../platform/db';

/**
 * A customer's sign-in sessions as they see them under "Where you're signed in" (issue 26, decision 025):
 * one row of portal_sign_in_session per OpenID grant, written when the provider hands out the grant
 * (provider.ts, loadExistingGrant), its last use moved on by the customer guard at most once a minute,
 * deleted with the grant (foreign key). Ending sessions deletes their grants, refresh tokens and provider
 * sessions; their access tokens are then refused on every instance by the guard's grant check.
 */

/** Browser and operating system from a user agent, e.g. Chrome and Windows; null for what is not known. */
export interface BrowserDescription {
  browser: string | null;
  os: string | null;
}

/** Parses a user agent (bowser, MIT) into the names a customer knows; versions are left out. */
export function describeBrowser(userAgent: string | undefined): BrowserDescription {
  const ua = (userAgent ?? '').slice(0, 1000).trim();
  if (!ua) return { browser: null, os: null };
  try {
    const parsed = Bowser.parse(ua);
    return { browser: parsed.browser.name || null, os: parsed.os.name || null };
  } catch {
    return { browser: null, os: null };
  }
}

/** What the new-device rule compares: the browser and operating system families (decision 025). */
export function browserKey(description: BrowserDescription): string {
  return `${description.browser ?? 'unknown'}|${description.os ?? 'unknown'}`;
}

/**
 * The network of an address, masked so that it says roughly where from without naming the device: an
 * IPv4 address without its last part (`81.2.69.xxx`), an IPv6 address by its first three groups
 * (`2001:db8:85a3:xxxx:…`). Null for anything that is not an address.
 */
export function maskNetwork(address: string | undefined): string | null {
  if (!address || !ipaddr.isValid(address)) return null;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  if (parsed.kind() === 'ipv4') {
    const [a, b, c] = (parsed as ipaddr.IPv4).octets;
    return `${a}.${b}.${c}.xxx`;
  }
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 3).map((p) => p.toString(16));
  return `${parts.join(':')}:xxxx:xxxx:xxxx:xxxx:xxxx`;
}

/**
 * Records the sign-in session of a grant the provider has just handed out (a sign-in, or a silent renewal
 * of the same session): started when its sign-in was, used now, from this browser and network.
 */
export async function recordSignInSession(
  q: Queryable,
  row: {
    grantId: string;
    accountId: string;
    customerId: string;
    userAgent: string | undefined;
    address: string | undefined;
    startedAt: Date;
    now: Date;
  },
): Promise<void> {
  const { browser, os } = describeBrowser(row.userAgent);
  await q.query(
    `INSERT INTO portal_sign_in_session
       (id, grant_id, account_id, customer_id, browser, os, network, started_at, last_used_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
     ON CONFLICT (grant_id) DO UPDATE SET browser = EXCLUDED.browser, os = EXCLUDED.os,
       network = EXCLUDED.network, started_at = EXCLUDED.started_at, last_used_at = EXCLUDED.last_used_at`,
    [
      randomUUID(),
      row.grantId,
      row.accountId,
      row.customerId,
      browser,
      os,
      maskNetwork(row.address),
      row.startedAt,
      row.now,
    ],
  );
}

export interface SignInSessionRow {
  id: string;
  grantId: string;
  browser: string | null;
  os: string | null;
  network: string | null;
  startedAt: Date;
  lastUsedAt: Date;
  /** A shared view's (issue 41 point 6): the staff member looking, read only; null for a sign-in. */
  viewerName: string | null;
}

/** A customer's live sign-in sessions (their grant not ended nor expired), last used first. */
export async function listSignInSessions(
  q: Queryable,
  customerId: string,
  now: Date,
): Promise<SignInSessionRow[]> {
  const { rows } = await q.query<{
    id: string;
    grant_id: string;
    browser: string | null;
    os: string | null;
    network: string | null;
    started_at: Date | string;
    last_used_at: Date | string;
    viewer_name: string | null;
  }>(
    `SELECT s.id, s.grant_id, s.browser, s.os, s.network, s.started_at, s.last_used_at, s.viewer_name
       FROM portal_sign_in_session s
       JOIN oidc_payload g ON g.model = 'Grant' AND g.id = s.grant_id
      WHERE s.customer_id = $1 AND (g.expires_at IS NULL OR g.expires_at > $2)
      ORDER BY s.last_used_at DESC, s.started_at DESC
      LIMIT 100`,
    [customerId, now],
  );
  return rows.map((r) => ({
    id: r.id,
    grantId: r.grant_id,
    browser: r.browser,
    os: r.os,
    network: r.network,
    startedAt: new Date(r.started_at),
    lastUsedAt: new Date(r.last_used_at),
    viewerName: r.viewer_name,
  }));
}

/** The grant of one of this customer's sessions by its public id, or undefined (unknown, or not theirs). */
export async function grantOfSession(
  q: Queryable,
  customerId: string,
  sessionId: string,
): Promise<{ grantId: string; accountId: string; viewerName: string | null } | undefined> {
  const { rows } = await q.query<{ grant_id: string; account_id: string; viewer_name: string | null }>(
    'SELECT grant_id, account_id, viewer_name FROM portal_sign_in_session WHERE id = $1 AND customer_id = $2',
    [sessionId, customerId],
  );
  const row = rows[0];
  return row ? { grantId: row.grant_id, accountId: row.account_id, viewerName: row.viewer_name } : undefined;
}

/** Deletes grants with every token issued under them (their portal_sign_in_session rows go with them). */
async function endGrants(q: Queryable, grantIds: string[]): Promise<void> {
  if (grantIds.length === 0) return;
  await q.query(
    `DELETE FROM oidc_payload WHERE grant_id = ANY($1::text[]) OR (model = 'Grant' AND id = ANY($1::text[]))`,
    [grantIds],
  );
}

/**
 * Ends one sign-in session of an identity user: its grant, every token of it, and the provider session
 * (the browser's session cookie) that holds it. Answers whether there was one to end.
 */
export async function endSession(q: Queryable, accountId: string, grantId: string): Promise<boolean> {
  const { rows } = await q.query<{ id: string }>(
    `SELECT id FROM oidc_payload WHERE model = 'Grant' AND id = $1 AND payload->>'accountId' = $2`,
    [grantId, accountId],
  );
  if (rows.length === 0) return false;
  await endGrants(q, [grantId]);
  await q.query(
    `DELETE FROM oidc_payload s WHERE s.model = 'Session' AND s.payload->>'accountId' = $1
       AND EXISTS (SELECT 1 FROM jsonb_each(coalesce(s.payload->'authorizations', '{}'::jsonb)) a
                    WHERE a.value->>'grantId' = $2)`,
    [accountId, grantId],
  );
  return true;
}

/**
 * Ends every sign-in session, grant and token of an identity user except those of `keepGrantId` (the
 * session that made the change; null ends them all), so refresh tokens elsewhere stop working and the
 * customer guard refuses their access tokens. Answers how many grants ended.
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
  await endGrants(q, ids);
  // The account's sign-in sessions, but for the one that holds the kept grant.
  await q.query(
    `DELETE FROM oidc_payload s WHERE s.model = 'Session' AND s.payload->>'accountId' = $1
       AND NOT EXISTS (SELECT 1 FROM jsonb_each(coalesce(s.payload->'authorizations', '{}'::jsonb)) a
                        WHERE a.value->>'grantId' = $2)`,
    [accountId, keepGrantId],
  );
  return ids.length;
}

/**
 * Whether the provider session holding `grantId` signed the account in at or after `since` (its password
 * and code, not a silent renewal): a recent sign-in may change sign-in methods without the password again.
 */
export async function signedInSince(
  q: Queryable,
  grantId: string,
  accountId: string,
  since: Date,
): Promise<boolean> {
  const { rows } = await q.query<{ recent: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM oidc_payload s
                     WHERE s.model = 'Session' AND s.payload->>'accountId' = $2
                       AND (s.payload->>'loginTs')::bigint >= $3
                       AND EXISTS (SELECT 1 FROM jsonb_each(coalesce(s.payload->'authorizations', '{}'::jsonb)) a
                                    WHERE a.value->>'grantId' = $1)) AS recent`,
    [grantId, accountId, Math.floor(since.getTime() / 1000)],
  );
  return rows[0]?.recent === true;
}

/** How long a browser stays known to an account after its last sign-in (issue 26 point 5). */
export const KNOWN_BROWSER_DAYS = 90;

/**
 * Notes a sign-in's browser on the customer's account and says whether to tell them: 'first' for the
 * account's very first recorded sign-in (after registration: nothing to compare with, no email), 'known'
 * for a browser seen on it within KNOWN_BROWSER_DAYS, 'new' otherwise.
 */
export async function noteSignInBrowser(
  q: Queryable,
  customerId: string,
  key: string,
  now: Date,
): Promise<'first' | 'known' | 'new'> {
  const { rows } = await q.query<{ browser_key: string; last_seen_at: Date | string }>(
    'SELECT browser_key, last_seen_at FROM portal_known_browser WHERE customer_id = $1',
    [customerId],
  );
  await q.query(
    `INSERT INTO portal_known_browser (customer_id, browser_key, first_seen_at, last_seen_at)
     VALUES ($1, $2, $3, $3)
     ON CONFLICT (customer_id, browser_key) DO UPDATE
       SET last_seen_at = GREATEST(portal_known_browser.last_seen_at, EXCLUDED.last_seen_at)`,
    [customerId, key, now],
  );
  if (rows.length === 0) return 'first';
  const seen = rows.find((r) => r.browser_key === key);
  const since = now.getTime() - KNOWN_BROWSER_DAYS * 24 * 60 * 60_000;
  return seen && new Date(seen.last_seen_at).getTime() > since ? 'known' : 'new';
}

/**
 * The browser and system of the customer's latest sign-in, from the browsers noted at each sign-in (the
 * new-device email's memory, kept KNOWN_BROWSER_DAYS); null when none is noted.
 */
export async function latestSignInBrowser(
  q: Queryable,
  customerId: string,
): Promise<(BrowserDescription & { at: Date }) | null> {
  const { rows } = await q.query<{ browser_key: string; last_seen_at: Date | string }>(
    `SELECT browser_key, last_seen_at FROM portal_known_browser WHERE customer_id = $1
     ORDER BY last_seen_at DESC LIMIT 1`,
    [customerId],
  );
  const row = rows[0];
  if (!row) return null;
  const [browser, os] = row.browser_key.split('|');
  const known = (name: string | undefined) => (name && name !== 'unknown' ? name : null);
  return { browser: known(browser), os: known(os), at: new Date(row.last_seen_at) };
}
