import { AsyncLocalStorage } from 'node:async_hooks';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import { errors } from '../../platform/oidc-library';
import type { Clock } from '../../platform/clock';
import type { Db } from '../../platform/db';
import {
  consumePayload,
  destroyByGrant,
  destroyPayload,
  findPayload,
  purgeExpired,
  upsertPayload,
  type PayloadRow,
} from './oidc.repository';

/** Grant-source models whose consume() redeems something; a second redemption must fail. */
const LABELS: Record<string, string> = {
  AuthorizationCode: 'authorization code',
  RefreshToken: 'refresh token',
  DeviceCode: 'device code',
  BackchannelAuthenticationRequest: 'backchannel authentication request',
  PushedAuthorizationRequest: 'request_uri',
  PreAuthorizedCode: 'pre-authorized code',
};

/**
 * Grant sources redeemed at the token endpoint, where the provider treats a consumed one presented again
 * as a leak and revokes its whole grant (reuse detection).
 */
const REDEEMED = new Set(['AuthorizationCode', 'RefreshToken']);

/**
 * How long before a request's arrival a redemption may have been written and still count as racing that
 * request rather than being replayed by it: two tabs renewing at once, one of them on a slower network,
 * and the clocks of several instances. A copy presented later than this after the rotation is a replay.
 */
export const REDEMPTION_RACE_MS = 2000;

const tokenRequests = new AsyncLocalStorage<{ arrivedAt: Date }>();

/**
 * Runs a token endpoint request knowing when it arrived, so that a code or refresh token consumed by a
 * concurrent request (one that had not finished when this one arrived) is told apart from a replay: the
 * race's losers get invalid_grant and the grant stays valid; a replay still revokes the grant.
 */
export function asTokenRequest<T>(arrivedAt: Date, handle: () => Promise<T>): Promise<T> {
  return tokenRequests.run({ arrivedAt }, handle);
}

/** Expired rows are purged every this many writes of one process (and at start). */
const PURGE_EVERY = 500;

/**
 * oidc-provider's storage, in the database so every instance sees the same sessions, codes, grants and
 * refresh tokens. Lifetimes are measured on the injected clock. consume() is a conditional UPDATE: when
 * several requests (on any instances) redeem one code or refresh token at once, exactly one gets it and
 * the rest get invalid_grant, leaving the winner's grant valid (see asTokenRequest); presented again
 * later, the spent code or token makes the provider revoke the grant.
 */
export function createAdapterFactory(db: Db, clock: Clock): (name: string) => Adapter {
  let writes = 0;
  return (model: string): Adapter => {
    const toPayload = (row: PayloadRow | undefined): AdapterPayload | undefined => {
      if (!row) return undefined;
      const payload = row.payload as AdapterPayload;
      if (!row.consumedAt) return payload;
      // Consumed by a request racing this one: shown as not consumed, so the provider goes on to
      // consume() it, which this request loses (invalid_grant) without revoking the winner's grant.
      const arrivedAt = REDEEMED.has(model) ? tokenRequests.getStore()?.arrivedAt : undefined;
      if (arrivedAt && row.consumedAt.getTime() > arrivedAt.getTime() - REDEMPTION_RACE_MS) return payload;
      return { ...payload, consumed: Math.floor(row.consumedAt.getTime() / 1000) };
    };
    return {
      async upsert(id, payload, expiresIn) {
        const now = clock.now();
        await upsertPayload(db, {
          model,
          id,
          payload: payload as Record<string, unknown>,
          grantId: payload.grantId ?? null,
          userCode: payload.userCode ?? null,
          uid: payload.uid ?? null,
          expiresAt: expiresIn ? new Date(now.getTime() + expiresIn * 1000) : null,
        });
        if (++writes % PURGE_EVERY === 0) await purgeExpired(db, now);
      },
      async find(id) {
        return toPayload(await findPayload(db, model, 'id', id, clock.now()));
      },
      async findByUid(uid) {
        return toPayload(await findPayload(db, model, 'uid', uid, clock.now()));
      },
      async findByUserCode(userCode) {
        return toPayload(await findPayload(db, model, 'user_code', userCode, clock.now()));
      },
      async consume(id) {
        if (!(await consumePayload(db, model, id, clock.now()))) {
          throw new errors.InvalidGrant(`${LABELS[model] ?? model} already consumed`);
        }
      },
      async destroy(id) {
        await destroyPayload(db, model, id);
      },
      async revokeByGrantId(grantId) {
        await destroyByGrant(db, model, grantId);
      },
    };
  };
}
