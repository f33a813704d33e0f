import { randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { exportJWK, generateKeyPair } from 'jose';
import type { Adapter, AdapterPayload, Configuration } from 'oidc-provider';
import { notifier } from '../../platform/notifier';
import { Provider } from '../../platform/oidc-library';
import type { StaffContext } from './context';

/*
 * The stand-in workforce identity provider (issue 41), outside production only: an OpenID provider on
 * this server, at /staff-idp, that signs in the demo staff (one per role) with their email, the demo
 * password and a 6-digit code emailed to them (read from the dev outbox), so its ID tokens say
 * amr ["pwd", "otp", "mfa"]. The console signs in through it exactly as through the insurer's provider.
 * Its state (sessions, codes, keys) is in this process's memory: one instance, for demos and tests.
 */

const STAND_IN_PATH = '/staff-idp';
export const STAND_IN_CLIENT_ID = 'staff-console';
/** The demo staff's password at the stand-in (README lists them). */
export const STAND_IN_PASSWORD = 'StandIn-Console-2026';

/** The demo staff: one per role, in the groups STAFF_ROLE_GROUPS gives those roles by default. */
export const demoStaff = [
  {
    sub: 'stand-in-agent',
    name: 'Alex Morgan',
    email: 'alex.morgan@staff.example.co.uk',
    groups: ['portal-agents'],
  },
  {
    sub: 'stand-in-senior-agent',
    name: 'Priya Shah',
    email: 'priya.shah@staff.example.co.uk',
    groups: ['portal-agents', 'portal-senior-agents'],
  },
  {
    sub: 'stand-in-auditor',
    name: 'Tom Ellis',
    email: 'tom.ellis@staff.example.co.uk',
    groups: ['portal-auditors'],
  },
  {
    sub: 'stand-in-editor',
    name: 'Sam Carter',
    email: 'sam.carter@staff.example.co.uk',
    groups: ['portal-editors'],
  },
  {
    sub: 'stand-in-publisher',
    name: 'Jo Hughes',
    email: 'jo.hughes@staff.example.co.uk',
    groups: ['portal-publishers'],
  },
  {
    sub: 'stand-in-operator',
    name: 'Ravi Patel',
    email: 'ravi.patel@staff.example.co.uk',
    groups: ['portal-operators'],
  },
] as const;

const CODE_TTL_MS = 10 * 60_000;
const CODE_ATTEMPTS = 5;
const FORM_LIMIT = 4096;

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A plain, accessible page with no inline style or script (the CSP allows neither). */
function page(title: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="en-GB">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)} - Workforce sign-in (stand-in)</title></head>
<body><header><p>Workforce sign-in (stand-in for the insurer's identity provider)</p></header><main>${body}</main></body>
</html>`;
}

function send(res: ServerResponse, status: number, html: string) {
  res.statusCode = status;
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  res.end(html);
}

async function formOf(req: IncomingMessage): Promise<URLSearchParams | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
    size += buffer.length;
    if (size > FORM_LIMIT) return null;
    chunks.push(buffer);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

const sameText = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

function credentialsPage(action: string, problem?: string) {
  return page(
    'Sign in',
    `<h1>Sign in to the staff console</h1>
${problem ? `<div role="alert"><p>${escapeHtml(problem)}</p></div>` : ''}
<form method="post" action="${escapeHtml(action)}">
<input type="hidden" name="step" value="credentials">
<p><label for="email">Work email address</label><br><input id="email" name="email" type="email" autocomplete="username" required></p>
<p><label for="password">Password</label><br><input id="password" name="password" type="password" autocomplete="current-password" required></p>
<p><button type="submit">Continue</button></p>
</form>`,
  );
}

function codePage(action: string, problem?: string) {
  return page(
    'Enter your code',
    `<h1>Enter the code we emailed you</h1>
${problem ? `<div role="alert"><p>${escapeHtml(problem)}</p></div>` : ''}
<form method="post" action="${escapeHtml(action)}">
<input type="hidden" name="step" value="code">
<p><label for="code">6-digit code</label><br><input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" required></p>
<p><button type="submit">Sign in</button></p>
</form>`,
  );
}

/**
 * The stand-in's storage: this process's memory, by model, each row gone at its expiry (what
 * oidc-provider's development adapter does, without its warning at every start).
 */
function memoryAdapter() {
  const rows = new Map<string, { payload: AdapterPayload; until: number | null }>();
  const live = (key: string) => {
    const row = rows.get(key);
    if (row && row.until !== null && row.until < Date.now()) {
      rows.delete(key);
      return undefined;
    }
    return row?.payload;
  };
  return class MemoryAdapter implements Adapter {
    constructor(private readonly model: string) {}
    private key(id: string) {
      return `${this.model}:${id}`;
    }
    async upsert(id: string, payload: AdapterPayload, expiresIn: number) {
      rows.set(this.key(id), { payload, until: expiresIn ? Date.now() + expiresIn * 1000 : null });
    }
    async find(id: string) {
      return live(this.key(id));
    }
    async findByUid(uid: string) {
      for (const key of rows.keys()) {
        if (key.startsWith(`${this.model}:`) && live(key)?.uid === uid) return live(key);
      }
      return undefined;
    }
    async findByUserCode(userCode: string) {
      for (const key of rows.keys()) {
        if (key.startsWith(`${this.model}:`) && live(key)?.userCode === userCode) return live(key);
      }
      return undefined;
    }
    async consume(id: string) {
      const payload = live(this.key(id));
      if (payload) payload.consumed = Math.floor(Date.now() / 1000);
    }
    async destroy(id: string) {
      rows.delete(this.key(id));
    }
    async revokeByGrantId(grantId: string) {
      for (const [key, row] of rows) if (row.payload.grantId === grantId) rows.delete(key);
    }
  };
}

export interface StandInProvider {
  issuer: string;
  clientSecret: string;
}

/** Builds the stand-in provider and mounts it at /staff-idp; answers its issuer and the console's secret. */
export async function mountStandInProvider(
  app: FastifyInstance,
  ctx: StaffContext,
): Promise<StandInProvider> {
  const issuer = `${ctx.config.publicUrl}${STAND_IN_PATH}`;
  const clientSecret = randomBytes(32).toString('base64url');
  const { privateKey } = await generateKeyPair('ES256', { extractable: true });
  const jwk = {
    ...(await exportJWK(privateKey)),
    kid: randomBytes(8).toString('hex'),
    alg: 'ES256',
    use: 'sig',
  };
  /** Codes under way, by interaction: who, the code, until when, wrong tries left. */
  const codes = new Map<string, { sub: string; code: string; until: number; triesLeft: number }>();

  const configuration: Configuration = {
    adapter: memoryAdapter(),
    clients: [
      {
        client_id: STAND_IN_CLIENT_ID,
        client_secret: clientSecret,
        redirect_uris: [`${ctx.config.publicUrl}/staff/callback`],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
        id_token_signed_response_alg: 'ES256',
      },
    ],
    jwks: { keys: [jwk as never] },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    scopes: ['openid', 'profile', 'email', 'groups'],
    claims: {
      acr: null,
      amr: null,
      auth_time: null,
      iss: null,
      sid: null,
      // As Entra ID and Okta do, every ID token says how the sign-in was made (the console checks it).
      openid: ['sub', 'acr', 'amr', 'auth_time'],
      profile: ['name'],
      email: ['email'],
      groups: ['groups'],
    },
    // The console reads who signed in from the ID token, as from Entra ID or Okta.
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false } },
    pkce: { required: () => true },
    interactions: { url: (_kctx, interaction) => `${STAND_IN_PATH}/interaction/${interaction.uid}` },
    ttl: {
      AuthorizationCode: 60,
      IdToken: 300,
      AccessToken: 300,
      Interaction: 600,
      Session: 8 * 3600,
      Grant: 8 * 3600,
    },
    async loadExistingGrant(kctx) {
      const { oidc } = kctx;
      const grant = new oidc.provider.Grant({
        clientId: oidc.client!.clientId,
        accountId: oidc.session!.accountId!,
      });
      grant.addOIDCScope([...oidc.requestParamOIDCScopes].join(' '));
      await grant.save();
      return grant;
    },
    async findAccount(_kctx, sub) {
      const staff = demoStaff.find((s) => s.sub === sub);
      if (!staff) return undefined;
      return {
        accountId: sub,
        claims: async () => ({ sub, name: staff.name, email: staff.email, groups: [...staff.groups] }),
      };
    },
    async renderError(kctx, out) {
      kctx.type = 'html';
      kctx.body = page(
        'Sign-in could not continue',
        `<h1>Sign-in could not continue</h1><p>${escapeHtml(String(out['error_description'] ?? out['error'] ?? ''))}</p><p><a href="/staff/">Back to the staff console</a></p>`,
      );
    },
  };
  const provider = new Provider(issuer, configuration);
  provider.proxy = true;
  const callback = provider.callback();
  const publicUrl = new URL(ctx.config.publicUrl);

  async function interaction(req: IncomingMessage, res: ServerResponse, uid: string) {
    const details = await provider.interactionDetails(req, res);
    if (details.uid !== uid || details.prompt.name !== 'login') {
      send(res, 400, page('Sign-in could not continue', '<h1>Sign-in could not continue</h1>'));
      return;
    }
    const action = `${STAND_IN_PATH}/interaction/${uid}`;
    if (req.method === 'GET') {
      send(res, 200, credentialsPage(action));
      return;
    }
    const form = await formOf(req);
    if (!form) {
      send(res, 413, credentialsPage(action, 'That was too long.'));
      return;
    }
    if (form.get('step') === 'credentials') {
      const email = (form.get('email') ?? '').trim().toLowerCase();
      const staff = demoStaff.find((s) => s.email === email);
      if (!staff || !sameText(form.get('password') ?? '', STAND_IN_PASSWORD)) {
        send(res, 401, credentialsPage(action, 'The email address or password is not right.'));
        return;
      }
      const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
      codes.set(uid, { sub: staff.sub, code, until: Date.now() + CODE_TTL_MS, triesLeft: CODE_ATTEMPTS });
      await notifier(ctx).enqueue({
        channel: 'email',
        to: staff.email,
        kind: 'staff-sign-in-code',
        subject: 'Your staff console sign-in code',
        text: `Your code to sign in to the staff console is ${code}. It works for 10 minutes.\n`,
      });
      send(res, 200, codePage(action));
      return;
    }
    const pending = codes.get(uid);
    if (!pending || pending.until < Date.now() || pending.triesLeft <= 0) {
      codes.delete(uid);
      send(res, 401, credentialsPage(action, 'That code has run out. Sign in again.'));
      return;
    }
    if (!sameText(form.get('code') ?? '', pending.code)) {
      pending.triesLeft -= 1;
      send(res, 401, codePage(action, 'That code is not right.'));
      return;
    }
    codes.delete(uid);
    await provider.interactionFinished(
      req,
      res,
      { login: { accountId: pending.sub, amr: ['pwd', 'otp', 'mfa'], acr: 'urn:stand-in:mfa' } },
      { mergeWithLastSubmission: false },
    );
  }

  await app.register(
    async (scope) => {
      scope.addHook('onRequest', async (request, reply) => {
        reply.hijack();
        const req = request.raw as IncomingMessage & { originalUrl?: string };
        const res = reply.raw;
        for (const [name, value] of Object.entries(reply.getHeaders())) {
          if (value !== undefined && !res.headersSent) res.setHeader(name, value as string | string[]);
        }
        const original = req.url ?? '/';
        let local = original.slice(STAND_IN_PATH.length);
        if (!local.startsWith('/')) local = `/${local}`;
        try {
          const match = /^\/interaction\/([A-Za-z0-9_-]+)\/?$/.exec(local.split('?')[0]!);
          if (match) {
            await interaction(req, res, match[1]!);
            return;
          }
          req.headers['x-forwarded-host'] = publicUrl.host;
          req.headers['x-forwarded-proto'] = publicUrl.protocol.slice(0, -1);
          req.originalUrl = original;
          req.url = local;
          await callback(req, res);
        } catch (error) {
          request.log.warn({ err: error }, 'stand-in workforce provider request failed');
          if (!res.headersSent)
            send(res, 400, page('Sign-in could not continue', '<h1>Sign-in could not continue</h1>'));
          else res.end();
        }
      });
      const never = async () => undefined;
      scope.all('/', never);
      scope.all('/*', never);
    },
    { prefix: STAND_IN_PATH },
  );
  return { issuer, clientSecret };
}
