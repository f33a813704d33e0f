/**
 * A production start: no demo customers or sign-ins (their passwords are published in the README), no dev
 * outbox, and no start at all when codes or emails would go nowhere real. The insurer's reference data
 * (content, agencies) still seeds.
 */
import { PGlite } from '@electric-sql/pglite';
import { exportJWK, generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app';
import { ConfigError, loadConfig, type Config } from './config';
import { seedAll } from './db/seed';
import { createServices } from './modules';
import { ManualClock } from './platform/clock';
import { migrate, wrapPglite, type Db } from './platform/db';
import type { ModuleContext } from './platform/module';
import type { Services } from './platform/services';

/** Production with every adapter pointed at a test double that nothing in these tests reaches. */
async function productionEnv(): Promise<Record<string, string>> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  return {
    NODE_ENV: 'production',
    LOG_LEVEL: 'silent',
    PUBLIC_URL: 'https://portal.example.co.uk',
    OIDC_JWKS: JSON.stringify({ keys: [{ ...(await exportJWK(privateKey)), kid: 'prod-1', use: 'sig' }] }),
    OIDC_COOKIE_KEYS: 'c'.repeat(40),
    MFA_ENCRYPTION_KEY: Buffer.alloc(32, 3).toString('base64'),
    SMTP_URL: 'smtp://127.0.0.1:2525',
    SMS_PROVIDER: 'webhook',
    SMS_WEBHOOK_URL: 'https://sms-gateway.invalid/send',
    DEV_OUTBOX: 'on',
  };
}

function configError(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected a ConfigError');
}

describe('production configuration', () => {
  it('refuses to start when texts or emails would go to the outbox, naming the setting in one line', async () => {
    const env = await productionEnv();
    const withoutSms = { ...env, SMS_PROVIDER: '', SMS_WEBHOOK_URL: '' };
    expect(configError(withoutSms)).toMatch(/^Invalid configuration: SMS_PROVIDER: outbox is not allowed/);
    expect(configError({ ...env, SMS_PROVIDER: 'outbox' })).toMatch(/SMS_PROVIDER/);
    expect(configError({ ...env, SMTP_URL: '' })).toMatch(
      /^Invalid configuration: SMTP_URL: required in production/,
    );
    for (const message of [configError(withoutSms), configError({ ...env, SMTP_URL: '' })]) {
      expect(message).not.toContain('\n');
    }
    // Real adapters: it starts. Outside production the outbox stays the default.
    expect(loadConfig(env).env).toBe('production');
    expect(loadConfig({ ...env, NODE_ENV: 'development' }).messaging.smsProvider).toBe('webhook');
    expect(loadConfig({}).messaging.smsProvider).toBe('outbox');
    // An instance that sends nothing (content only) needs neither.
    expect(loadConfig({ NODE_ENV: 'production', MODULES: 'content,policy' }).env).toBe('production');
  });

  it('refuses the stand-in workforce provider, and has no staff console without the insurer’s', async () => {
    const env = await productionEnv();
    expect(configError({ ...env, STAFF_OIDC_ISSUER: 'stand-in' })).toMatch(
      /^Invalid configuration: STAFF_OIDC_ISSUER: the stand-in workforce provider is not allowed in production/,
    );
    expect(loadConfig(env).staff.provider).toBeNull();
    expect(loadConfig({ ...env, NODE_ENV: 'development' }).staff.provider).toEqual({ kind: 'stand-in' });
  });

  it('seeds no demo data in production unless SEED_DEMO_DATA=true asks for it', async () => {
    const env = await productionEnv();
    expect(loadConfig(env).seedDemoData).toBe(false);
    expect(loadConfig({ ...env, SEED_DEMO_DATA: 'true' }).seedDemoData).toBe(true);
    expect(loadConfig({}).seedDemoData).toBe(true);
    expect(loadConfig({ SEED_DEMO_DATA: 'false' }).seedDemoData).toBe(false);
    expect(configError({ SEED_DEMO_DATA: 'yes' })).toMatch(/SEED_DEMO_DATA/);
  });
});

describe('a production server', () => {
  let db: Db;
  let config: Config;
  let app: FastifyInstance;

  beforeAll(async () => {
    const pg = await PGlite.create();
    db = wrapPglite(pg);
    config = loadConfig(await productionEnv());
    const clock = new ManualClock();
    await migrate(db);
    const ctx: ModuleContext = { config, db, clock, services: {} as Services };
    await createServices(ctx);
    await seedAll(ctx);
    app = await buildApp({ config, db, clock, logger: false });
    await app.ready();
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await db?.close();
  });

  const count = async (sql: string) => Number((await db.query<{ n: string }>(sql)).rows[0]!.n);

  it('serves no staff sign-in and no stand-in workforce provider', async () => {
    for (const url of ['/staff/sign-in', '/staff-idp/auth', '/staff/api/session']) {
      const res = await app.inject({ method: 'GET', url });
      expect([url, res.statusCode]).toEqual([url, 404]);
    }
    // A dot-path is refused before any route: no provider's discovery document either.
    const discovery = await app.inject({ method: 'GET', url: '/staff-idp/.well-known/openid-configuration' });
    expect(discovery.statusCode).toBeGreaterThanOrEqual(400);
    expect(discovery.body).not.toContain('issuer');
  });

  it('has no demo customers: signing in as Margaret fails exactly as for an unknown user', async () => {
    const signIn = (username: string, password: string) =>
      app.inject({ method: 'POST', url: '/api/v1/authn', payload: { username, password } });
    const margaret = await signIn('margaret.thompson@example.co.uk', 'BluebellCottage1952');
    const unknown = await signIn('nobody.here@example.co.uk', 'BluebellCottage1952');
    expect(margaret.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    const body = (r: typeof margaret) => {
      const { errorId: _ignored, ...rest } = r.json<Record<string, unknown>>();
      return rest;
    };
    expect(body(margaret)).toEqual(body(unknown));
    expect(body(margaret)['errorCode']).toBe('E0000004');
    expect(await count('SELECT count(*) AS n FROM customer')).toBe(0);
    expect(await count('SELECT count(*) AS n FROM identity_user')).toBe(0);
    expect(await count('SELECT count(*) AS n FROM policy')).toBe(0);
  });

  it("still seeds the insurer's reference data: content and agencies", async () => {
    expect(await count('SELECT count(*) AS n FROM agency')).toBeGreaterThanOrEqual(3);
    const page = await app.inject({
      method: 'GET',
      url: '/api/v1/content/getByRelativeUrl?relativeUrl=/login',
    });
    expect(page.statusCode).toBe(200);
  });

  it('never mounts the dev outbox, page or API, whatever DEV_OUTBOX says', async () => {
    for (const url of ['/dev/outbox', '/dev/outbox/api', '/dev/outbox/api?to=07700900123']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.body).not.toContain('Dev outbox');
    }
  });
});
