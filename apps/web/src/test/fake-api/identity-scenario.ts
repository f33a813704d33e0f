import { statusTokenCall } from '@portal/contracts/account';
import { buildPath } from '@portal/contracts/call-path';
import { postAuditEventCall } from '@portal/contracts/eventlog';
import {
  authnCall,
  cancelCall,
  factorResendCall,
  factorVerifyCall,
  previousCall,
  type AuthnTransaction,
  type FactorType,
  type OktaError,
  type OktaFactor,
} from '@portal/contracts/identity';
import { endCurrentSessionCall } from '@portal/contracts/session';
import { http, HttpResponse, type HttpHandler } from 'msw';
import { testPageInit } from '../content-fixtures';
import { fakeApi, fakeCall, recordRequest } from './fake-api';

/*
 * The identity provider's sign-in transaction on the fake API, with the state it carries: primary
 * authentication (MFA_REQUIRED), a code sent by the chosen factor (MFA_CHALLENGE), the code verified
 * (SUCCESS); then the OpenID provider's token exchange, and the event log and status token the sign-in
 * calls. Each contract call is a fakeCall on its contract.
 */

const orgUrl = testPageInit.identity.orgUrl;
const issuer = testPageInit.identity.issuer;

type FakeFactor =
  | { id: string; type: FactorType; phoneNumber: string; landlineIsAMobile?: boolean }
  /** The authenticator app: its right code is always `appCode`. */
  | { id: string; type: 'totp' }
  /** Backup codes: `backupCodes` each work once. */
  | { id: string; type: 'backup_code'; codesLeft: number }
  /** A factor type the SPA does not offer (as a newer server or a real Okta org may list). */
  | { id: string; type: 'webauthn' };

/** The authenticator app's code in the fake provider, and the backup codes it accepts (once each). */
export const appCode = '246810';
const backupCodes = ['ACDE-FGHJ', 'KMNP-QRTU'];

export interface FakeUser {
  id: string;
  email: string;
  password: string;
  factors: FakeFactor[];
  /** A status a real Okta org may answer instead of MFA_REQUIRED (LOCKED_OUT, PASSWORD_EXPIRED). */
  statusOverride?: string;
}

export const margaret: FakeUser = {
  id: '00u-margaret',
  email: 'margaret.thompson@example.co.uk',
  password: 'BluebellCottage1952',
  factors: [
    { id: 'sms-margaret', type: 'sms', phoneNumber: '+44 XXXX XXX123' },
    { id: 'call-margaret', type: 'call', phoneNumber: '+44 XXXX XXX789' },
  ],
};

export const david: FakeUser = {
  id: '00u-david',
  email: 'david.okafor@example.co.uk',
  password: 'HomeFarmHarvest61',
  factors: [{ id: 'call-david', type: 'call', phoneNumber: '+44 XXXX XXX456', landlineIsAMobile: false }],
};

/** The customer every sign-in of the scenario ends as. */
const customerId = 'C1000001';

const base64url = (value: string) => btoa(value).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

/** An unsigned JWT-shaped access token carrying the claims the SPA reads (the SPA never verifies it). */
export function testAccessToken(claims: Record<string, unknown>, expiresInSeconds = 600): string {
  const now = Math.floor(Date.now() / 1000);
  const header = base64url(JSON.stringify({ alg: 'ES256', typ: 'at+jwt' }));
  const payload = base64url(JSON.stringify({ iat: now, exp: now + expiresInSeconds, ...claims }));
  return `${header}.${payload}.c2lnbmF0dXJl`;
}

/** Okta's error body. */
export function oktaError(errorCode: string, errorSummary: string, causes: string[] = []): OktaError {
  return {
    errorCode,
    errorSummary,
    errorLink: errorCode,
    errorId: 'test-error',
    errorCauses: causes.map((c) => ({ errorSummary: c })),
  };
}

/** A transaction link to a call of the identity contract. */
const link = (path: string) => ({ href: `${orgUrl}${path}`, hints: { allow: ['POST'] } });
const expiresAt = () => new Date(Date.now() + 5 * 60_000).toISOString();

function oktaUser(user: FakeUser) {
  return {
    id: user.id,
    passwordChanged: null,
    profile: {
      login: user.email,
      firstName: 'Test',
      lastName: 'Customer',
      locale: 'en_GB',
      timeZone: 'Europe/London',
    },
  };
}

/** Rosemary: a text, the authenticator app (used last, so listed first) and backup codes. */
export const rosemary: FakeUser = {
  id: '00u-rosemary',
  email: 'rosemary.clarke@example.co.uk',
  password: 'BrookCottageClun49',
  factors: [
    { id: 'totp-rosemary', type: 'totp' },
    { id: 'passkey-rosemary', type: 'webauthn' },
    { id: 'sms-rosemary', type: 'sms', phoneNumber: '+44 XXXX XXX666' },
    { id: 'backup-rosemary', type: 'backup_code', codesLeft: 2 },
  ],
};

function oktaFactor(f: FakeFactor) {
  if (f.type === 'totp' || f.type === 'backup_code')
    return {
      id: f.id,
      factorType: f.type === 'totp' ? ('token:software:totp' as const) : ('backup_code' as const),
      provider: f.type === 'totp' ? ('GOOGLE' as const) : ('CUSTOM' as const),
      vendorName: f.type === 'totp' ? ('GOOGLE' as const) : ('CUSTOM' as const),
      profile: { name: 'Authenticator app', ...(f.type === 'backup_code' ? { codesLeft: f.codesLeft } : {}) },
    };
  if (f.type === 'webauthn')
    return { id: f.id, factorType: 'webauthn', provider: 'FIDO', vendorName: 'FIDO', profile: {} };
  return oktaPhoneFactor(f);
}

function oktaPhoneFactor(f: PhoneFactor) {
  return {
    id: f.id,
    factorType: f.type,
    provider: 'OKTA' as const,
    vendorName: 'OKTA' as const,
    profile: {
      phoneNumber: f.phoneNumber,
      ...(f.type === 'call' ? { landlineIsAMobile: f.landlineIsAMobile ?? false } : {}),
    },
  };
}

function mfaRequiredTx(user: FakeUser, stateToken: string): AuthnTransaction {
  return {
    status: 'MFA_REQUIRED',
    stateToken,
    expiresAt: expiresAt(),
    // A factor type the contract does not list (webauthn) goes out as a newer server would send it.
    _embedded: { user: oktaUser(user), factors: user.factors.map(oktaFactor) as OktaFactor[] },
    _links: { cancel: link(cancelCall.path) },
  };
}

type PhoneFactor = Extract<FakeFactor, { phoneNumber: string }>;
const isPhone = (f: FakeFactor): f is PhoneFactor => f.type === 'sms' || f.type === 'call';

function mfaChallengeTx(user: FakeUser, factor: PhoneFactor, stateToken: string): AuthnTransaction {
  return {
    status: 'MFA_CHALLENGE',
    stateToken,
    expiresAt: expiresAt(),
    factorResult: 'CHALLENGE',
    _embedded: { user: oktaUser(user), factor: oktaPhoneFactor(factor) },
    _links: {
      next: link(buildPath(factorVerifyCall.path, { factorId: factor.id })),
      prev: link(previousCall.path),
      cancel: link(cancelCall.path),
      resend: [{ ...link(buildPath(factorResendCall.path, { factorId: factor.id })), name: factor.type }],
    },
  };
}

/** Reads a form-encoded body of the OpenID provider's token and revoke endpoints. */
async function formOf(request: Request): Promise<Record<string, string>> {
  return Object.fromEntries(new URLSearchParams(await request.clone().text()));
}

/**
 * The OpenID provider's endpoints, which have no contract (oidc-client-ts calls them; the server serves
 * them with a library): discovery, token and revoke, at the test issuer. Each is recorded as
 * `oidc.discovery`, `oidc.token` or `oidc.revoke`. `token` takes the answer to the token request.
 */
export const openIdProvider = {
  discovery: (): HttpHandler =>
    http.get(`${issuer}/.well-known/openid-configuration`, ({ request }) => {
      record('oidc.discovery', request, undefined);
      return HttpResponse.json({
        issuer,
        authorization_endpoint: `${issuer}/v1/authorize`,
        token_endpoint: `${issuer}/v1/token`,
        jwks_uri: `${issuer}/v1/keys`,
        end_session_endpoint: `${issuer}/v1/logout`,
        revocation_endpoint: `${issuer}/v1/revoke`,
        response_types_supported: ['code'],
        code_challenge_methods_supported: ['S256'],
      });
    }),
  token: (answer: (form: Record<string, string>) => Response): HttpHandler =>
    http.post(`${issuer}/v1/token`, async ({ request }) => {
      const form = await formOf(request);
      record('oidc.token', request, form);
      return answer(form);
    }),
  revoke: (): HttpHandler =>
    http.post(`${issuer}/v1/revoke`, async ({ request }) => {
      record('oidc.revoke', request, await formOf(request));
      return new HttpResponse(null, { status: 200 });
    }),
};

function record(id: string, request: Request, body: unknown) {
  recordRequest({
    id,
    service: 'identity',
    params: {},
    query: new URL(request.url).searchParams,
    body,
    headers: request.headers,
    credentials: request.credentials,
  });
}

/** What a test reads from the scenario. */
export interface IdentityScenario {
  /** The code the last challenge sent. */
  lastCode(): string | undefined;
}

/**
 * Puts the identity provider on the fake API for these users: the sign-in transaction (wrong password
 * 401 E0000004, a code per challenge, 5 digits for a landline call and 6 otherwise, 403 E0000068 for a
 * wrong one), the end of the browser session, the OpenID token exchange (each token set numbered,
 * refresh tokens `refresh-1`, `refresh-2`...), the event log and the account service's status token.
 * A test answers a call otherwise by adding its own fakeCall after this.
 */
export function identityScenario(users: FakeUser[] = [margaret, david]): IdentityScenario {
  const transactions = new Map<string, { user: FakeUser; factor?: FakeFactor; code?: string }>();
  const usedBackupCodes = new Set<string>();
  let counter = 0;
  let lastCode: string | undefined;
  let tokenCount = 0;
  let statusTokens = 0;

  const challenge = (stateToken: string, factorId: string) => {
    const tx = transactions.get(stateToken);
    if (!tx) return { status: 401, body: oktaError('E0000011', 'Invalid token provided') } as const;
    const factor = tx.user.factors.find((f) => f.id === factorId);
    if (!factor) return { status: 404, body: oktaError('E0000007', 'Not found') } as const;
    if (!isPhone(factor))
      return { status: 403, body: oktaError('E0000068', 'Invalid Passcode/Answer') } as const;
    const length = factor.type === 'sms' || factor.landlineIsAMobile ? 6 : 5;
    counter += 1;
    tx.code = String(100000 + counter * 7919).slice(0, length);
    tx.factor = factor;
    lastCode = tx.code;
    return { status: 200, body: mfaChallengeTx(tx.user, factor, stateToken) } as const;
  };

  fakeApi.use(
    fakeCall(postAuditEventCall, () => ({ status: 202, body: { accepted: true } })),
    fakeCall(statusTokenCall, () => {
      statusTokens += 1;
      return {
        status: 200,
        body: { token: `status-${statusTokens}`, expiresAt: new Date(Date.now() + 60_000).toISOString() },
      };
    }),
    fakeCall(authnCall, ({ body }) => {
      const user = 'username' in body ? users.find((u) => u.email === body.username) : undefined;
      if (!user || !('password' in body) || user.password !== body.password)
        return { status: 401, body: oktaError('E0000004', 'Authentication failed') };
      if (user.statusOverride)
        return {
          status: 200,
          raw: JSON.stringify({ status: user.statusOverride }),
          headers: { 'Content-Type': 'application/json' },
        };
      counter += 1;
      const stateToken = `state-${counter}`;
      transactions.set(stateToken, { user });
      return { status: 200, body: mfaRequiredTx(user, stateToken) };
    }),
    fakeCall(factorVerifyCall, ({ params, body }) => {
      if (body.passCode === undefined) return challenge(body.stateToken, params.factorId);
      const tx = transactions.get(body.stateToken);
      if (!tx) return { status: 401, body: oktaError('E0000011', 'Invalid token provided') };
      const factor = tx.user.factors.find((f) => f.id === params.factorId);
      const right =
        factor?.type === 'totp'
          ? body.passCode === appCode
          : factor?.type === 'backup_code'
            ? backupCodes.includes(body.passCode) && !usedBackupCodes.has(body.passCode)
            : body.passCode === tx.code;
      if (factor?.type === 'backup_code' && right) usedBackupCodes.add(body.passCode);
      if (!right)
        return {
          status: 403,
          body: oktaError('E0000068', 'Invalid Passcode/Answer', ['That code is not right.']),
        };
      transactions.delete(body.stateToken);
      return {
        status: 200,
        body: {
          status: 'SUCCESS',
          sessionToken: `session-${tx.user.id}`,
          expiresAt: expiresAt(),
          _embedded: { user: oktaUser(tx.user) },
        },
      };
    }),
    fakeCall(factorResendCall, ({ params, body }) => challenge(body.stateToken, params.factorId)),
    fakeCall(previousCall, ({ body }) => {
      const tx = transactions.get(body.stateToken);
      if (!tx) return { status: 401, body: oktaError('E0000011', 'Invalid token provided') };
      return { status: 200, body: mfaRequiredTx(tx.user, body.stateToken) };
    }),
    fakeCall(cancelCall, ({ body }) => {
      transactions.delete(body.stateToken);
      return { status: 200, body: { status: 'UNAUTHENTICATED' } };
    }),
    fakeCall(endCurrentSessionCall, () => ({ status: 204, body: undefined })),
    openIdProvider.discovery(),
    openIdProvider.token(() => {
      tokenCount += 1;
      const now = Math.floor(Date.now() / 1000);
      const idClaims = {
        iss: issuer,
        aud: testPageInit.identity.clientId,
        sub: 'user-1',
        iat: now,
        exp: now + 600,
        customerId,
      };
      return HttpResponse.json({
        access_token: testAccessToken({ customerId, onBehalfOf: customerId, n: tokenCount }),
        id_token: testAccessToken(idClaims),
        token_type: 'Bearer',
        expires_in: 600,
        refresh_token: `refresh-${tokenCount}`,
        scope: 'openid portal.customer',
      });
    }),
    openIdProvider.revoke(),
  );

  return { lastCode: () => lastCode };
}
