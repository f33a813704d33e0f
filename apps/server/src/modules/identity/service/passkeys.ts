import type { PasskeyCreationOptions, PasskeyRegistrationResponse } from '@portal/contracts/passkeys';
import {
  PASSKEY_OFFER_AFTER_REGISTRATION_HOURS,
  PASSKEY_OFFER_QUIET_DAYS,
  type PasskeyOffer,
} from '@portal/contracts/passkey-offer';
import type { SignInMethod } from '@portal/contracts/sign-in-methods';
import { HttpError, notFound } from '../../../platform/errors';
import {
  consumeWebauthnChallenge,
  findAuthenticator,
  insertPasskey,
  insertWebauthnChallenge,
  declinePasskeyOffer as saveDeclinedOffer,
  listPasskeys,
  passkeyOfferState,
  renameAuthenticator,
} from '../identity.repository';
import { CHALLENGE_MS, registrationOptions, verifyRegistration } from '../mfa/webauthn';
import { newId } from '../secrets';
import type { RequestMeta } from '../authn/context';
import { activeUser, methodJson, tell } from './authenticators';
import type { IdentityServiceContext } from './context';

/* The profile's passkeys: add (options, then the browser's new credential), rename. Removing is removeSignInMethod's. */

/** Options for the browser to create a passkey; the challenge is the customer's, single use, 5 minutes. */
export async function passkeyOptions(
  c: IdentityServiceContext,
  customerId: string,
): Promise<PasskeyCreationOptions> {
  const user = await activeUser(c.db, customerId);
  const options = await registrationOptions(c.authn.rp, user, await listPasskeys(c.db, user.id));
  const at = c.now();
  await insertWebauthnChallenge(c.db, {
    challenge: options.challenge,
    purpose: 'register',
    userId: user.id,
    transactionId: null,
    createdAt: at,
    expiresAt: new Date(at.getTime() + CHALLENGE_MS),
  });
  return options;
}

const invalid = () =>
  new HttpError(
    400,
    'PASSKEY_INVALID',
    'Your passkey could not be added. Try again, or use another device or password manager.',
  );

/**
 * Adds the passkey the browser created over this customer's challenge (used up, whatever the outcome):
 * user verification required, an allowed origin, not registered before. Audited, and an email tells the
 * customer, in the same database transaction.
 */
export async function registerPasskey(
  c: IdentityServiceContext,
  customerId: string,
  name: string,
  credential: PasskeyRegistrationResponse,
  meta: RequestMeta = {},
): Promise<SignInMethod> {
  const at = c.now();
  const id = newId('wan');
  const added = await c.db.transaction(async (q) => {
    const user = await activeUser(q, customerId, true);
    const verified = await verifyRegistration(c.authn.rp, credential, (challenge) =>
      consumeWebauthnChallenge(q, challenge, 'register', { userId: user.id }, at),
    );
    if (!verified) return null;
    const inserted = await insertPasskey(q, {
      id,
      userId: user.id,
      name: name.trim(),
      ...verified,
      createdAt: at,
      lastUsedAt: null,
    });
    if (!inserted) return null;
    const factor = (await findAuthenticator(q, user.id, id))!;
    await c.authn.audit(q, meta, {
      eventId: 'identity.factor.enrol',
      customerId: user.customerId,
      isSuccess: true,
      details: { factorType: 'webauthn', factorId: id, deviceType: verified.deviceType },
    });
    await tell(c, q, user, 'passkey-added', factor, at, meta);
    return methodJson(q, factor);
  });
  if (!added) throw invalid();
  return added;
}

export async function renamePasskey(
  c: IdentityServiceContext,
  customerId: string,
  factorId: string,
  name: string,
  meta: RequestMeta = {},
): Promise<SignInMethod> {
  return c.db.transaction(async (q) => {
    const user = await activeUser(q, customerId, true);
    const factor = await findAuthenticator(q, user.id, factorId, true);
    if (!factor || factor.kind !== 'webauthn') throw notFound('No such passkey for this customer');
    await renameAuthenticator(q, factor.id, name.trim());
    await c.authn.audit(q, meta, {
      eventId: 'identity.factor.rename',
      customerId: user.customerId,
      isSuccess: true,
      details: { factorType: 'webauthn', factorId: factor.id },
    });
    return methodJson(q, (await findAuthenticator(q, user.id, factor.id))!);
  });
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/**
 * Whether to offer a passkey now (issue 25 point 5): never to a customer who has one; after a "not now",
 * again only once PASSKEY_OFFER_QUIET_DAYS have passed; otherwise only to a new account, within
 * PASSKEY_OFFER_AFTER_REGISTRATION_HOURS of its first code.
 */
export async function passkeyOffer(c: IdentityServiceContext, customerId: string): Promise<PasskeyOffer> {
  const user = await activeUser(c.db, customerId);
  const state = await passkeyOfferState(c.db, user.id);
  const now = c.now().getTime();
  if (state.hasPasskey) return { due: false };
  if (state.declinedAt) {
    const notBefore = new Date(state.declinedAt.getTime() + PASSKEY_OFFER_QUIET_DAYS * DAY_MS);
    return notBefore.getTime() <= now ? { due: true } : { due: false, notBefore: notBefore.toISOString() };
  }
  const activated = state.activatedAt?.getTime();
  return {
    due: activated !== undefined && now - activated <= PASSKEY_OFFER_AFTER_REGISTRATION_HOURS * HOUR_MS,
  };
}

/** "Not now": the offer stays away for PASSKEY_OFFER_QUIET_DAYS (audited, so the customer's history shows it). */
export async function declinePasskeyOffer(
  c: IdentityServiceContext,
  customerId: string,
  meta: RequestMeta = {},
): Promise<PasskeyOffer> {
  const at = c.now();
  return c.db.transaction(async (q) => {
    const user = await activeUser(q, customerId);
    await saveDeclinedOffer(q, user.id, at);
    await c.authn.audit(q, meta, {
      eventId: 'identity.passkey.offer.declined',
      customerId: user.customerId,
      isSuccess: true,
    });
    return {
      due: false,
      notBefore: new Date(at.getTime() + PASSKEY_OFFER_QUIET_DAYS * DAY_MS).toISOString(),
    };
  });
}
