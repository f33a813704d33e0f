/**
 * Refresh token rotation under races and replays, on two instances sharing one database (the embedded
 * one, and a PostgreSQL server when DATABASE_URL is set) and one clock. Requests that race with the same
 * token (all sent before its rotation was written) leave exactly one winner and the sign-in valid; the
 * same token presented again once its rotation is done is a replay: the whole grant ends, the winner's
 * newer refresh token included.
 */
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestDb, type TestContext } from '../../../test/helpers';
import { ManualClock } from '../../platform/clock';
import { openDb, type Db } from '../../platform/db';
import {
  authorize,
  freshCustomer,
  pkcePair,
  sessionTokenFor,
  signInTokens,
  type TokenSet,
} from '../../../test/oidc-support';
import { REDEMPTION_RACE_MS } from './adapter';
import { PORTAL_CLIENT_ID } from './provider';

const variants: Array<{ name: string; db: () => Promise<Db> }> = [
  { name: 'embedded database', db: createTestDb },
];
if (process.env.DATABASE_URL) {
  variants.push({
    name: 'PostgreSQL',
    db: () => openDb({ kind: 'postgres', url: process.env.DATABASE_URL!, max: 8 }),
  });
}

const form = (t: TestContext, fields: Record<string, string>) =>
  t.app.inject({
    method: 'POST',
    url: '/oauth2/default/v1/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ client_id: PORTAL_CLIENT_ID, ...fields }).toString(),
  });

const refresh = (t: TestContext, refreshToken: string) =>
  form(t, { grant_type: 'refresh_token', refresh_token: refreshToken });

/**
 * `n` requests in flight together, as a burst from clients arrives: started a few milliseconds apart
 * (real time; the test clock stands still), so some are read before the winner's rotation is written
 * and some after, on either database.
 */
const burst = <T>(n: number, send: (i: number) => Promise<T>) =>
  Promise.all(
    Array.from({ length: n }, async (_, i) => {
      await new Promise((resolve) => setTimeout(resolve, i * 3));
      return send(i);
    }),
  );

describe.each(variants)('refresh token races and replays ($name, two instances)', (variant) => {
  let db: Db;
  let clock: ManualClock;
  let a: TestContext;
  let b: TestContext;
  /** The instance a load balancer picks for the i-th request: each in turn. */
  const instance = (i: number) => (i % 2 === 0 ? a : b);

  beforeAll(async () => {
    db = await variant.db();
    clock = new ManualClock();
    a = await createTestApp({}, { db, clock });
    b = await createTestApp({}, { db, clock });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await db?.close();
  });

  /** The rows the grant still has, by model (the grant itself under 'Grant'). */
  async function grantRows(grantId: string) {
    const { rows } = await db.query<{ model: string }>(
      `SELECT model FROM oidc_payload WHERE grant_id = $1 OR (model = 'Grant' AND id = $1)`,
      [grantId],
    );
    return rows.map((r) => r.model).sort();
  }

  it('gives one winner of 20 simultaneous refreshes with one token, and leaves the sign-in valid', async () => {
    const tokens = await signInTokens(a);
    const grantId = String(decodeJwt(tokens.access_token)['gid']);
    const results = await burst(20, (i) => refresh(instance(i), tokens.refresh_token));
    const winners = results.filter((r) => r.statusCode === 200);
    expect(winners).toHaveLength(1);
    for (const loser of results.filter((r) => r.statusCode !== 200)) {
      expect(loser.statusCode).toBe(400);
      expect(loser.json()).toMatchObject({ error: 'invalid_grant' });
    }
    // The family is intact: the winner's refresh token works, on either instance, and so does its successor.
    const won = winners[0]!.json<TokenSet>();
    expect(await grantRows(grantId)).toContain('Grant');
    const next = await refresh(b, won.refresh_token);
    expect(next.statusCode).toBe(200);
    expect(decodeJwt(next.json<TokenSet>().access_token)).toMatchObject({
      customerId: tokens.who.customerId,
      gid: grantId,
    });
    expect((await refresh(a, next.json<TokenSet>().refresh_token)).statusCode).toBe(200);
  });

  it('ends the whole grant when a rotated refresh token comes back after its rotation', async () => {
    const tokens = await signInTokens(a);
    const grantId = String(decodeJwt(tokens.access_token)['gid']);
    const rotated = await refresh(a, tokens.refresh_token);
    expect(rotated.statusCode).toBe(200);
    const winner = rotated.json<TokenSet>();

    // Later, on the other instance: the old token again (someone else had a copy).
    clock.advance(REDEMPTION_RACE_MS + 1);
    const replay = await refresh(b, tokens.refresh_token);
    expect(replay.statusCode).toBe(400);
    expect(replay.json()).toMatchObject({ error: 'invalid_grant' });
    // The winner's token is refused too, and nothing of the grant is left to issue tokens from.
    const after = await refresh(a, winner.refresh_token);
    expect(after.statusCode).toBe(400);
    expect(after.json()).toMatchObject({ error: 'invalid_grant' });
    expect(await grantRows(grantId)).toEqual([]);
  });

  it('counts a copy arriving just after the rotation (a second tab on a slow network) as the race it lost', async () => {
    const tokens = await signInTokens(a);
    const rotated = await refresh(a, tokens.refresh_token);
    expect(rotated.statusCode).toBe(200);
    clock.advance(REDEMPTION_RACE_MS - 500);
    const late = await refresh(b, tokens.refresh_token);
    expect(late.statusCode).toBe(400);
    expect(late.json()).toMatchObject({ error: 'invalid_grant' });
    expect((await refresh(b, rotated.json<TokenSet>().refresh_token)).statusCode).toBe(200);
  });

  it('ends the grant when the loser of a race tries its token again later', async () => {
    const tokens = await signInTokens(b);
    const grantId = String(decodeJwt(tokens.access_token)['gid']);
    const results = await burst(20, (i) => refresh(instance(i), tokens.refresh_token));
    const won = results.find((r) => r.statusCode === 200)!.json<TokenSet>();
    clock.advance(REDEMPTION_RACE_MS + 1);
    expect((await refresh(a, tokens.refresh_token)).json()).toMatchObject({ error: 'invalid_grant' });
    expect((await refresh(b, won.refresh_token)).json()).toMatchObject({ error: 'invalid_grant' });
    expect(await grantRows(grantId)).toEqual([]);
  });

  it('gives one winner of 20 simultaneous redemptions of one code, and its tokens stay valid', async () => {
    const sessionToken = await sessionTokenFor(a.app, await freshCustomer(a));
    const { verifier, challenge } = pkcePair();
    const { callback } = await authorize(a, {
      sessionToken,
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    const code = callback.searchParams.get('code')!;
    const redeem = (t: TestContext) =>
      form(t, {
        grant_type: 'authorization_code',
        code,
        code_verifier: verifier,
        redirect_uri: `${a.config.publicUrl}/login/callback`,
      });
    const results = await burst(20, (i) => redeem(instance(i)));
    const winners = results.filter((r) => r.statusCode === 200);
    expect(winners).toHaveLength(1);
    expect(results.filter((r) => r.statusCode === 400)).toHaveLength(19);
    expect((await refresh(b, winners[0]!.json<TokenSet>().refresh_token)).statusCode).toBe(200);
  });
});
