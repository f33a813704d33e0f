import {
  countActiveAuthenticators,
  deleteAuthenticator,
  findAccountDates,
  findUserByCustomerId,
  findUserById,
  findUserByLogin,
  killContactChange,
  latestContactChange,
  listAuthenticators,
  listPhoneFactorDates,
  setLogin,
  unlockUser,
} from '../identity.repository';
import { maskPhone } from '../phone';
import { tell } from './authenticators';
import type { IdentityServiceContext } from './context';
import type { AccountForStaff, IdentityService, StaffFactorKind } from './types';

/*
 * The contact centre acting for a customer (issue 41 points 4 and 5): what it sees of the account (never a
 * secret), and the few things it may do: lift a lockout, remove second factors, change the sign-in email.
 * Each goes down the customer's own code path where there is one (removing a factor audits and emails as
 * the customer's own removal does); the request's `agent` names the staff member and their reason on every
 * audit row (authn/context.ts). Each answers what it did, or why it did nothing, for the caller to say.
 */

const factorKinds: Record<
  'authenticator-app' | 'passkeys' | 'backup-codes',
  'totp' | 'webauthn' | 'backup_codes'
> = {
  'authenticator-app': 'totp',
  passkeys: 'webauthn',
  'backup-codes': 'backup_codes',
};

const staffKindOf: Record<'totp' | 'webauthn' | 'backup_codes', StaffFactorKind> = {
  totp: 'authenticator-app',
  webauthn: 'passkey',
  backup_codes: 'backup-codes',
};

export async function accountForStaff(
  c: IdentityServiceContext,
  ...[customerId]: Parameters<IdentityService['accountForStaff']>
): ReturnType<IdentityService['accountForStaff']> {
  const user = await findUserByCustomerId(c.db, customerId);
  if (!user) return null;
  const [dates, phones, apps] = await Promise.all([
    findAccountDates(c.db, user.id),
    listPhoneFactorDates(c.db, user.id),
    countActiveAuthenticators(c.db, user.id),
  ]);
  const factors: AccountForStaff['factors'] = [
    ...phones.map((f) => ({
      kind: f.factorType === 'sms' ? ('text' as const) : ('call' as const),
      destination: maskPhone(f.phoneNumber),
      count: 1,
      addedAt: f.createdAt,
    })),
    ...apps.map((a) => ({ kind: staffKindOf[a.kind], count: a.count, addedAt: a.newestAt })),
  ];
  return {
    status: user.status,
    lockedUntil: c.authn.isLocked(user) ? user.lockedUntil : null,
    lastSignInAt: dates.lastLoginAt,
    activationSentAt: user.status === 'PROVISIONED' ? dates.activationSentAt : null,
    factors,
  };
}

export async function customerIdOfLogin(
  c: IdentityServiceContext,
  ...[email]: Parameters<IdentityService['customerIdOfLogin']>
): ReturnType<IdentityService['customerIdOfLogin']> {
  const login = email.trim().toLowerCase();
  if (login.length === 0 || login.length > 254) return null;
  return (await findUserByLogin(c.db, login))?.customerId ?? null;
}

/** Ends a lockout now, as the emailed unlock link does (audit `identity.unlock`). */
export async function unlockForCustomer(
  c: IdentityServiceContext,
  ...[customerId, meta]: Parameters<IdentityService['unlockForCustomer']>
): ReturnType<IdentityService['unlockForCustomer']> {
  return c.db.transaction(async (q) => {
    const found = await findUserByCustomerId(q, customerId);
    const user = found && (await findUserById(q, found.id, true));
    if (!user || user.status !== 'ACTIVE') return 'no-account';
    if (!c.authn.isLocked(user)) return 'not-locked';
    await unlockUser(q, user.id);
    await c.authn.audit(q, meta, {
      eventId: 'identity.unlock',
      customerId: user.customerId,
      isSuccess: true,
    });
    return 'unlocked';
  });
}

/**
 * Removes every active factor of the kinds asked for, each as the customer's own removal does it (audit
 * `identity.factor.<kind>-removed` and the email), in one transaction; one not yet confirmed goes quietly.
 * Answers how many active ones went (0: nothing to remove, and nothing done).
 */
export async function removeFactorsForCustomer(
  c: IdentityServiceContext,
  ...[customerId, kinds, meta]: Parameters<IdentityService['removeFactorsForCustomer']>
): ReturnType<IdentityService['removeFactorsForCustomer']> {
  const at = c.now();
  const wanted = new Set(kinds.map((k) => factorKinds[k]));
  return c.db.transaction(async (q) => {
    const found = await findUserByCustomerId(q, customerId);
    const user = found && (await findUserById(q, found.id, true));
    if (!user || user.status !== 'ACTIVE') return { removed: 0 };
    const chosen = (await listAuthenticators(q, user.id, true)).filter((f) => wanted.has(f.kind));
    const active = chosen.filter((f) => f.status === 'ACTIVE');
    if (active.length === 0) return { removed: 0 };
    for (const factor of chosen) {
      await deleteAuthenticator(q, factor.id);
      if (factor.status !== 'ACTIVE') continue;
      const event =
        factor.kind === 'totp'
          ? 'app-removed'
          : factor.kind === 'webauthn'
            ? 'passkey-removed'
            : 'backup-codes-removed';
      await tell(c, q, user, event, factor, at, meta);
    }
    return { removed: active.length };
  });
}

/**
 * The sign-in email changed on the customer's behalf, with no code (the staff member checked who they
 * spoke to): in one transaction with what `alongside` writes (the record, the audit row). A code the
 * customer was sent for a change of their own stops working.
 */
export async function changeLoginForCustomer(
  c: IdentityServiceContext,
  ...[customerId, email, alongside]: Parameters<IdentityService['changeLoginForCustomer']>
): ReturnType<IdentityService['changeLoginForCustomer']> {
  const value = email.trim().toLowerCase();
  const at = c.now();
  return c.db.transaction(async (q) => {
    const found = await findUserByCustomerId(q, customerId);
    const user = found && (await findUserById(q, found.id, true));
    if (!user || user.status !== 'ACTIVE') return { ok: false, refused: 'no-account' } as const;
    if (user.login === value) return { ok: false, refused: 'same' } as const;
    const owner = await findUserByLogin(q, value);
    if (owner && owner.id !== user.id) return { ok: false, refused: 'in-use' } as const;
    const pending = await latestContactChange(q, user.id, 'email');
    if (pending && !pending.usedAt && !pending.deadAt) await killContactChange(q, pending.id, at);
    await setLogin(q, user.id, value);
    await alongside(q, { previous: user.login, value, at });
    return { ok: true, previous: user.login, value, at } as const;
  });
}
