import { randomUUID } from 'node:crypto';
import { errors } from '../../platform/oidc-library';
import { describe, expect, it } from 'vitest';
import { databases } from '../../../test/helpers';
import { ManualClock } from '../../platform/clock';
import { asTokenRequest, createAdapterFactory, REDEMPTION_RACE_MS } from './adapter';

describe.each(databases())('OpenID provider storage on $name', ({ open }) => {
  // Unique ids per run: the PostgreSQL database is shared with concurrent test runs.
  const id = () => `t-${randomUUID()}`;

  it('stores, finds and expires models on the injected clock', async () => {
    const db = await open();
    const clock = new ManualClock();
    const adapter = createAdapterFactory(db, clock);
    const sessions = adapter('Session');
    const jti = id();
    const uid = id();
    try {
      await sessions.upsert(jti, { uid, accountId: '00u1', loginTs: 1 }, 60);
      expect(await sessions.find(jti)).toMatchObject({ uid, accountId: '00u1', loginTs: 1 });
      expect(await sessions.findByUid(uid)).toMatchObject({ accountId: '00u1' });
      // Another model with the same id is a different row.
      expect(await adapter('Interaction').find(jti)).toBeUndefined();

      await sessions.upsert(jti, { uid, accountId: '00u2' }, 60);
      expect(await sessions.find(jti)).toMatchObject({ accountId: '00u2' });

      clock.advance(61_000);
      expect(await sessions.find(jti)).toBeUndefined();
      expect(await sessions.findByUid(uid)).toBeUndefined();
    } finally {
      await sessions.destroy(jti);
      await db.close();
    }
  });

  it('consumes a code once; a second redemption is invalid_grant', async () => {
    const db = await open();
    const codes = createAdapterFactory(db, new ManualClock())('AuthorizationCode');
    const code = id();
    try {
      await codes.upsert(code, { grantId: 'g1', clientId: 'portal-spa' }, 60);
      await codes.consume(code);
      expect(await codes.find(code)).toMatchObject({ consumed: expect.any(Number) });
      await expect(codes.consume(code)).rejects.toBeInstanceOf(errors.InvalidGrant);
      await expect(codes.consume(id())).rejects.toMatchObject({
        error: 'invalid_grant',
        error_detail: 'authorization code already consumed',
      });
    } finally {
      await codes.destroy(code);
      await db.close();
    }
  });

  it('lets exactly one of 20 simultaneous redemptions through', async () => {
    const db = await open();
    const tokens = createAdapterFactory(db, new ManualClock())('RefreshToken');
    const token = id();
    try {
      await tokens.upsert(token, { grantId: 'g1' }, 60);
      const results = await Promise.allSettled(Array.from({ length: 20 }, () => tokens.consume(token)));
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      expect(results.filter((r) => r.status === 'rejected')).toHaveLength(19);
    } finally {
      await tokens.destroy(token);
      await db.close();
    }
  });

  it('tells a token request that raced a redemption from one that replays it', async () => {
    const db = await open();
    const clock = new ManualClock();
    const tokens = createAdapterFactory(db, clock)('RefreshToken');
    const token = id();
    try {
      await tokens.upsert(token, { grantId: 'g1' }, 60);
      const arrivedAt = clock.now();
      await tokens.consume(token);
      // Outside a token request, and for a request that arrived after the race allowance: consumed.
      expect(await tokens.find(token)).toMatchObject({ consumed: expect.any(Number) });
      clock.advance(REDEMPTION_RACE_MS);
      const replay = await asTokenRequest(clock.now(), () => tokens.find(token));
      expect(replay).toMatchObject({ consumed: expect.any(Number) });
      // A request that arrived before the redemption was written lost a race: it sees the token as
      // unspent (so the provider does not revoke the grant) and its own consume() fails.
      const raced = await asTokenRequest(arrivedAt, () => tokens.find(token));
      expect(raced).toBeDefined();
      expect(raced).not.toHaveProperty('consumed');
      await expect(asTokenRequest(arrivedAt, () => tokens.consume(token))).rejects.toMatchObject({
        error: 'invalid_grant',
      });
    } finally {
      await tokens.destroy(token);
      await db.close();
    }
  });

  it('revokes by grant within one model, and destroys', async () => {
    const db = await open();
    const adapter = createAdapterFactory(db, new ManualClock());
    const refresh = adapter('RefreshToken');
    const codes = adapter('AuthorizationCode');
    const grantId = id();
    const [a, b, c] = [id(), id(), id()];
    try {
      await refresh.upsert(a, { grantId }, 60);
      await refresh.upsert(b, { grantId: 'other' }, 60);
      await codes.upsert(c, { grantId }, 60);
      await refresh.revokeByGrantId(grantId);
      expect(await refresh.find(a)).toBeUndefined();
      expect(await refresh.find(b)).toBeDefined();
      expect(await codes.find(c)).toBeDefined();
      await codes.destroy(c);
      expect(await codes.find(c)).toBeUndefined();
    } finally {
      for (const x of [a, b]) await refresh.destroy(x);
      await db.close();
    }
  });

  it('finds device codes by user code', async () => {
    const db = await open();
    const devices = createAdapterFactory(db, new ManualClock())('DeviceCode');
    const code = id();
    const userCode = id();
    try {
      await devices.upsert(code, { userCode, grantId: 'g' }, 60);
      expect(await devices.findByUserCode(userCode)).toMatchObject({ userCode });
    } finally {
      await devices.destroy(code);
      await db.close();
    }
  });
});
