import { randomUUID } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { AuthnTransaction } from '@portal/contracts';
import type { Db } from '../src/platform/db';
import { hashPassword } from '../src/platform/password-hash';
import type { OutboxRow } from '../src/platform/notifier/outbox';
import { insertUser, syncFactors } from '../src/modules/identity/identity.repository';
import { factorsForNumbers } from '../src/modules/identity/identity.service';
import { newId } from '../src/modules/identity/secrets';

/*
 * Helpers for tests of the identity and registration journeys: they drive the real HTTP API and read
 * codes and links the way a person would, from the dev outbox.
 */

export const margaret = {
  customerId: 'C1000001',
  email: 'margaret.thompson@example.co.uk',
  password: 'BluebellCottage1952',
  mobile: '07700900123',
  landline: '01632960456',
};
export const david = {
  customerId: 'C1000002',
  email: 'david.okafor@example.co.uk',
  password: 'HomeFarmHarvest61',
  landline: '01632960789',
};

export async function post(
  app: FastifyInstance,
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  return app.inject({ method: 'POST', url, payload: body as object, headers });
}

export async function outbox(app: FastifyInstance, to: string): Promise<OutboxRow[]> {
  const res = await app.inject({ method: 'GET', url: `/dev/outbox/api?to=${encodeURIComponent(to)}` });
  if (res.statusCode !== 200) throw new Error(`outbox answered ${res.statusCode}`);
  return (res.json() as { messages: OutboxRow[] }).messages;
}

/** The digits of the newest code sent to a phone (text "code is 123456." or voice "code is 1, 2, 3, 4, 5."). */
export async function latestCode(app: FastifyInstance, phone: string): Promise<string> {
  const [message] = await outbox(app, phone);
  const match = message && /code is ([\d, ]+)\./.exec(message.body);
  if (!match?.[1]) throw new Error(`no code sent to ${phone}`);
  return match[1].replace(/\D/g, '');
}

/** The `token` query parameter of the newest link emailed to `email` (optionally of one kind). */
export async function latestLinkToken(app: FastifyInstance, email: string, kind?: string): Promise<string> {
  const messages = (await outbox(app, email)).filter((m) => !kind || m.kind === kind);
  const match = messages[0] && /https?:\/\/\S+\?token=([A-Za-z0-9_%-]+)/.exec(messages[0].body);
  if (!match?.[1]) throw new Error(`no link emailed to ${email}`);
  return decodeURIComponent(match[1]);
}

export function tx(res: LightMyRequestResponse): AuthnTransaction {
  return res.json() as AuthnTransaction;
}

/** Primary authentication expected to answer MFA_REQUIRED; returns the state token and factors. */
export async function signIn(app: FastifyInstance, username: string, password: string) {
  const res = await post(app, '/api/v1/authn', { username, password });
  if (res.statusCode !== 200) throw new Error(`sign-in answered ${res.statusCode} ${res.body}`);
  const body = tx(res);
  if (body.status !== 'MFA_REQUIRED') throw new Error(`expected MFA_REQUIRED, got ${body.status}`);
  return { stateToken: body.stateToken, factors: body._embedded.factors, body };
}

/** Signs in fully (password, then the first factor of `type`, code from the outbox); returns the sessionToken. */
export async function signInFully(
  app: FastifyInstance,
  username: string,
  password: string,
  phone: string,
  type: 'sms' | 'call' = 'sms',
): Promise<string> {
  const { stateToken, factors } = await signIn(app, username, password);
  const factor = factors.find((f) => f.factorType === type)!;
  const challenge = await post(app, `/api/v1/authn/factors/${factor.id}/verify`, { stateToken });
  if (challenge.statusCode !== 200)
    throw new Error(`challenge answered ${challenge.statusCode} ${challenge.body}`);
  const passCode = await latestCode(app, phone);
  const done = await post(app, `/api/v1/authn/factors/${factor.id}/verify`, { stateToken, passCode });
  const body = tx(done);
  if (body.status !== 'SUCCESS') throw new Error(`expected SUCCESS, got ${done.body}`);
  return body.sessionToken;
}

/** Headers worth comparing between two answers: everything but per-response ids and timing. */
export function comparableHeaders(res: LightMyRequestResponse): Record<string, unknown> {
  const { date: _date, 'x-correlationid': _c, ...rest } = res.headers;
  return rest;
}

/** The body without Okta's per-response errorId. */
export function comparableBody(res: LightMyRequestResponse): unknown {
  const { errorId: _errorId, correlationId: _correlationId, ...rest } = res.json() as Record<string, unknown>;
  return rest;
}

/**
 * An ACTIVE account that belongs to this test alone (unique customer id, login and numbers), so tests
 * can run against a shared PostgreSQL server at the same time as others.
 */
export async function createTestUser(
  db: Db,
  options: { password?: string; mobile?: boolean; landline?: boolean; now?: Date } = {},
) {
  const unique = randomUUID().replace(/-/g, '').slice(0, 10);
  const digits = String(Number.parseInt(unique.slice(0, 8), 16) % 1_000_000).padStart(6, '0');
  const mobile = options.mobile === false ? null : `07700${digits}`;
  const landline = options.landline ? `01632${digits}` : null;
  const password = options.password ?? 'CorrectHorseBatteryStaple9';
  const user = {
    id: newId('00u'),
    customerId: `T${unique}`,
    login: `test-${unique}@example.org`,
    password,
    mobile,
    landline,
  };
  const now = options.now ?? new Date();
  await insertUser(db, {
    id: user.id,
    customerId: user.customerId,
    login: user.login,
    status: 'ACTIVE',
    firstName: 'Test',
    lastName: unique,
    // The portal's own parameters (platform/password-hash.ts): argon2's defaults (64 MiB, 3 passes, 4 lanes)
    // made every test sign-in several times dearer than a real one.
    passwordHash: await hashPassword(password),
    now,
  });
  await syncFactors(db, user.id, factorsForNumbers([mobile, landline]), now);
  return user;
}
