import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, envVariables, loadConfig, moduleNames, mountPrefix, repoRoot } from '.';

function configError(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('derives the public address from the port unless it is given', () => {
    expect(loadConfig({ PORT: '3200' }).publicUrl).toBe('http://localhost:3200');
    expect(loadConfig({ PORT: '3200', PUBLIC_URL: 'https://portal.example.co.uk' }).publicUrl).toBe(
      'https://portal.example.co.uk',
    );
  });

  it('runs the whole portal from one process on the embedded database by default', () => {
    const config = loadConfig({});
    expect(config.env).toBe('development');
    expect(config.port).toBe(3000);
    expect(config.host).toBe('127.0.0.1');
    expect(config.publicUrl).toBe('http://localhost:3000');
    expect(config.database).toEqual({ kind: 'pglite', dataDir: path.join(repoRoot, '.data', 'pglite') });
    expect([...config.modules].sort()).toEqual([...moduleNames].sort());
    for (const m of moduleNames) expect(config.baseUrls[m]).toBe('http://localhost:3000');
    expect(config.webDistDir).toBe(path.join(repoRoot, 'apps', 'web', 'dist'));
    expect(config.devOutbox).toBe(true);
  });

  it('serves no metrics and makes no traces unless asked, and metrics on loopback when asked', () => {
    const none = loadConfig({});
    expect(none.metrics).toEqual({ port: undefined, host: '127.0.0.1', publicPath: undefined });
    expect(none.tracing).toEqual({ otlpEndpoint: undefined });
    const asked = loadConfig({
      METRICS_PORT: '9464',
      METRICS_PUBLIC_PATH: '/metrics',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318',
    });
    expect(asked.metrics).toEqual({ port: 9464, host: '127.0.0.1', publicPath: '/metrics' });
    expect(asked.tracing).toEqual({ otlpEndpoint: 'http://127.0.0.1:4318' });
    expect(configError({ METRICS_PORT: '70000' })).toMatch(/^Invalid configuration: METRICS_PORT: /);
    expect(configError({ METRICS_PUBLIC_PATH: 'metrics' })).toMatch(
      /^Invalid configuration: METRICS_PUBLIC_PATH: /,
    );
    expect(configError({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' })).toMatch(
      /^Invalid configuration: OTEL_EXPORTER_OTLP_ENDPOINT: /,
    );
  });

  it('uses PostgreSQL when DATABASE_URL is set, and listens on all interfaces in production', () => {
    const config = loadConfig({
      NODE_ENV: 'production',
      DATABASE_URL: 'postgres://portal@db.internal:5432/portal',
      OIDC_JWKS: JSON.stringify({ keys: [{ kty: 'EC', d: 'x' }] }),
      OIDC_COOKIE_KEYS: 'k'.repeat(32),
      MFA_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
      SMTP_URL: 'smtp://mail.internal:587',
      SMS_PROVIDER: 'webhook',
      SMS_WEBHOOK_URL: 'https://sms.internal/send',
      DEV_OUTBOX: 'on',
    });
    expect(config.database).toEqual({
      kind: 'postgres',
      url: 'postgres://portal@db.internal:5432/portal',
      max: 10,
      preparedStatements: true,
      connectTimeoutMs: 3000,
      statementTimeoutMs: 5000,
    });
    expect(config.host).toBe('0.0.0.0');
    // Never in production, whatever the setting says.
    expect(config.devOutbox).toBe(false);
  });

  it('takes base URLs without their trailing slash and treats empty values as unset', () => {
    const config = loadConfig({
      PUBLIC_URL: 'https://portal.example.co.uk/',
      CONTENT_BASE_URL: 'https://content.example.co.uk/cms//',
      POLICY_BASE_URL: '',
    });
    expect(config.publicUrl).toBe('https://portal.example.co.uk');
    expect(config.baseUrls.content).toBe('https://content.example.co.uk/cms');
    expect(config.baseUrls.policy).toBe('https://portal.example.co.uk');
  });

  it('trusts proxies by hop count or by address, never every hop', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.168.1.5,::1' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '192.168.1.5',
      '::1',
    ]);
  });

  it('runs housekeeping hourly and keeps the audit trail seven years unless told otherwise', () => {
    expect(loadConfig({}).housekeeping).toEqual({
      intervalMinutes: 60,
      auditRetentionDays: 2557,
      pauseMs: 20,
    });
    expect(
      loadConfig({ HOUSEKEEPING_INTERVAL_MINUTES: '0', AUDIT_RETENTION_DAYS: '3653' }).housekeeping,
    ).toEqual({ intervalMinutes: 0, auditRetentionDays: 3653, pauseMs: 20 });
  });

  it('drains for 10 s before stopping in production, not at all elsewhere, unless told', () => {
    const production = {
      NODE_ENV: 'production',
      MODULES: 'content',
    };
    expect(loadConfig({}).shutdownDrainMs).toBe(0);
    expect(loadConfig(production).shutdownDrainMs).toBe(10_000);
    expect(loadConfig({ ...production, SHUTDOWN_DRAIN_SECONDS: '0' }).shutdownDrainMs).toBe(0);
    expect(loadConfig({ SHUTDOWN_DRAIN_SECONDS: '25' }).shutdownDrainMs).toBe(25_000);
  });

  it('requires MFA_ENCRYPTION_KEY (32 bytes, base64) in production on an instance serving identity', () => {
    const production = {
      NODE_ENV: 'production',
      OIDC_JWKS: JSON.stringify({ keys: [{ kty: 'EC', d: 'x' }] }),
      OIDC_COOKIE_KEYS: 'k'.repeat(32),
      SMTP_URL: 'smtp://mail.internal:587',
      SMS_PROVIDER: 'webhook',
      SMS_WEBHOOK_URL: 'https://sms.internal/send',
    };
    expect(() => loadConfig(production)).toThrow(/^Invalid configuration: MFA_ENCRYPTION_KEY: required/);
    const key = Buffer.alloc(32, 9);
    expect(
      loadConfig({ ...production, MFA_ENCRYPTION_KEY: key.toString('base64') }).mfaEncryptionKey,
    ).toEqual(key);
    expect(() =>
      loadConfig({ ...production, MFA_ENCRYPTION_KEY: Buffer.alloc(16).toString('base64') }),
    ).toThrow(/^Invalid configuration: MFA_ENCRYPTION_KEY: expected 32 bytes/);
    // A data-only instance never reads the secrets, and development has a fixed key of its own.
    expect(() => loadConfig({ NODE_ENV: 'production', MODULES: 'policy' })).not.toThrow();
    expect(loadConfig({}).mfaEncryptionKey).toHaveLength(32);
    expect(loadConfig({}).mfaPreviousKeys).toEqual([]);
    const old = Buffer.alloc(32, 7);
    expect(
      loadConfig({ MFA_ENCRYPTION_KEYS_PREVIOUS: ` ${old.toString('base64')} ,` }).mfaPreviousKeys,
    ).toEqual([old]);
    expect(() => loadConfig({ MFA_ENCRYPTION_KEYS_PREVIOUS: `${old.toString('base64')},short` })).toThrow(
      'Invalid configuration: MFA_ENCRYPTION_KEYS_PREVIOUS: expected 32-byte keys in base64, comma-separated',
    );
  });

  it('serves only the modules MODULES lists', () => {
    expect([...loadConfig({ MODULES: 'content, identity' }).modules]).toEqual(['content', 'identity']);
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ NODE_ENV: 'staging' }, 'NODE_ENV'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ PUBLIC_URL: 'localhost:3000' }, 'PUBLIC_URL'],
    [{ DATABASE_URL: 'mysql://db/portal' }, 'DATABASE_URL'],
    [{ REDIS_URL: 'http://cache:6379' }, 'REDIS_URL'],
    [{ CONTENT_BASE_URL: 'ftp://content' }, 'CONTENT_BASE_URL'],
    [{ TRUST_PROXY: 'yes' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: 'true' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '0' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '10.0.0.0/33' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '10.0.0.1, proxy.internal' }, 'TRUST_PROXY'],
    [{ MODULES: 'content,billing' }, 'MODULES'],
    [{ MODULES: ',' }, 'MODULES'],
    [{ HOUSEKEEPING_INTERVAL_MINUTES: '-1' }, 'HOUSEKEEPING_INTERVAL_MINUTES'],
    [{ AUDIT_RETENTION_DAYS: '7' }, 'AUDIT_RETENTION_DAYS'],
    [{ REDIS_COMMAND_TIMEOUT_MS: '0' }, 'REDIS_COMMAND_TIMEOUT_MS'],
    [{ SEND_NOW_TIMEOUT_MS: '10' }, 'SEND_NOW_TIMEOUT_MS'],
    [{ SHUTDOWN_DRAIN_SECONDS: '-1' }, 'SHUTDOWN_DRAIN_SECONDS'],
    [{ SHUTDOWN_DRAIN_SECONDS: '2.5' }, 'SHUTDOWN_DRAIN_SECONDS'],
    [{ SHUTDOWN_DRAIN_SECONDS: '301' }, 'SHUTDOWN_DRAIN_SECONDS'],
  ])('refuses %o with one line naming %s', (env, variable) => {
    const message = configError(env as Record<string, string>);
    expect(message).toMatch(new RegExp(`^Invalid configuration: ${variable}: \\S`));
    expect(message).not.toContain('\n');
  });
});

describe('mountPrefix', () => {
  it('is the path of the base URL, empty for the site root', () => {
    expect(mountPrefix('http://localhost:3000')).toBe('');
    expect(mountPrefix('http://localhost:3000/')).toBe('');
    expect(mountPrefix('https://portal.example.co.uk/content-svc')).toBe('/content-svc');
    expect(mountPrefix('https://portal.example.co.uk/a/b/')).toBe('/a/b');
  });
});

describe('configuration documentation', () => {
  it('lists every variable in .env.example and in the README table', () => {
    const example = readFileSync(path.join(repoRoot, '.env.example'), 'utf8');
    const readme = readFileSync(path.join(repoRoot, 'README.md'), 'utf8');
    const inExample = new Set([...example.matchAll(/^([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]));
    const inReadme = new Set([...readme.matchAll(/^\| `([A-Z][A-Z0-9_]*)`/gm)].map((m) => m[1]));
    expect(
      envVariables.filter((v) => !inExample.has(v)),
      'missing from .env.example',
    ).toEqual([]);
    expect(
      envVariables.filter((v) => !inReadme.has(v)),
      'missing from the README table',
    ).toEqual([]);
    expect(
      [...inExample].filter((v) => !envVariables.includes(v!)),
      'in .env.example, not read',
    ).toEqual([]);
  });
});
