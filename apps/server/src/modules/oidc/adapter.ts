import { errors, type Adapter, type AdapterPayload } from 'oidc-provider';
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

/** Expired rows are purged every this many writes of one process (and at start). */
const PURGE_EVERY = 500;

/**
 * oidc-provider's storage, in the database so every instance sees the same sessions, codes, grants and
 * refresh tokens. Lifetimes are measured on the injected clock. consume() is a conditional UPDATE: when
 * several requests (on any instances) redeem one code at once, exactly one gets it and the rest get
 * invalid_grant.
 */
export function createAdapterFactory(db: Db, clock: Clock): (name: string) => Adapter {
  let writes = 0;
  return (model: string): Adapter => {
    const toPayload = (row: PayloadRow | undefined): AdapterPayload | undefined => {
      if (!row) return undefined;
      const payload = row.payload as AdapterPayload;
      return row.consumedAt ? { ...payload, consumed: Math.floor(row.consumedAt.getTime() / 1000) } : payload;
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
