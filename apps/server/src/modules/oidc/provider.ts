import { createHash, timingSafeEqual } from 'node:crypto';
import type { Configuration, KoaContextWithOIDC, ResourceServer } from 'oidc-provider';
import { errors, Provider } from '../../platform/oidc-library';
import { mountPrefix } from '../../config';
import { integrationScopes } from '@portal/contracts/call';
import { apiAudience, oidcIssuer, PORTAL_SCOPE } from '../../platform/auth-guard';
import { integrationAudience } from '../../platform/client-guard';
import type { OidcContext } from './context';
import { spaClientId } from '../../platform/page-init';
import { createAdapterFactory } from './adapter';
import { identityPort } from './identity-port';
import type { OidcKeys } from './keys';
import { recordSignInSession } from './sign-in-sessions';

/** The portal SPA: the one first-party client (public, PKCE); page-init hands the SPA the same id. */
export const PORTAL_CLIENT_ID = spaClientId;

/** Okta's default authorization server layout, under the issuer. */
export const OIDC_ROUTES = {
  authorization: '/v1/authorize',
  token: '/v1/token',
  jwks: '/v1/keys',
  end_session: '/v1/logout',
  revocation: '/v1/revoke',
  userinfo: '/v1/userinfo',
  introspection: '/v1/introspect',
} as const;

/** Path of the issuer on this server (identity mount prefix + /oauth2/default). */
export function issuerPath(ctx: OidcContext): string {
  return `${mountPrefix(ctx.config.baseUrls.identity)}/oauth2/default`;
}

/** Where provider cookies live: the identity service's path, so /api/v1/sessions/me sees the session. */
function cookiePath(ctx: OidcContext): string {
  return `${mountPrefix(ctx.config.baseUrls.identity)}/`;
}

/**
 * The attributes of the provider's long-lived cookies (the session, `_session` and its signature
 * `_session.sig`): what the provider sets them with, and what anyone clearing them must use too, so a
 * browser replaces the cookie instead of keeping it (and never receives it without `Secure`).
 */
export function sessionCookieOptions(ctx: OidcContext) {
  return {
    httpOnly: true,
    sameSite: 'lax',
    path: cookiePath(ctx),
    secure: ctx.config.publicUrl.startsWith('https:'),
    signed: true,
  } as const;
}

const INTERACTION_TTL = 10 * 60;
const AUTHORIZATION_CODE_TTL = 60;

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A plain, accessible page with no inline style or script (the CSP allows neither). */
function page(title: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="en-GB">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title></head>
<body><main>${body}</main></body>
</html>`;
}

/**
 * Adds the hash of an inline script to the response's CSP (as the provider itself does for form_post),
 * so the one script we need runs while every other inline script stays blocked.
 */
function allowInlineScript(ctx: KoaContextWithOIDC, script: string) {
  const csp = ctx.response.get('content-security-policy');
  if (!csp) return;
  const hash = `'sha256-${createHash('sha256').update(script).digest('base64')}'`;
  ctx.set(
    'content-security-policy',
    csp
      .split(';')
      .map((d) => (d.trim().startsWith('script-src') ? `${d.trim()} ${hash}` : d.trim()))
      .join('; '),
  );
}

/** Okta's response mode for silent sign-in and renewal (okta-auth-js `token.getWithoutPrompt`). */
const OKTA_POST_MESSAGE = 'okta_post_message';

const SCRIPT_UNSAFE = /[<>&\u2028\u2029]/g;
const scriptSafe = (json: string) =>
  json.replace(SCRIPT_UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/**
 * The answer to an authorize request with `response_mode=okta_post_message`, as Okta gives it: a page
 * meant for a hidden iframe that posts the result (`code` and `state`, or `error`) to its parent window,
 * only to the origin of the client's registered redirect URI. That answer alone may be framed, and only
 * by that origin; its one inline script is allowed by hash. Every other answer keeps `frame-ancestors
 * 'none'`.
 */
function oktaPostMessage(registeredOrigins: ReadonlySet<string>) {
  return async (kctx: KoaContextWithOIDC, redirectUri: string, params: Record<string, unknown>) => {
    let origin: string | undefined;
    try {
      origin = new URL(redirectUri).origin;
    } catch {
      origin = undefined;
    }
    kctx.type = 'html';
    if (!origin || !registeredOrigins.has(origin)) {
      kctx.status = 400;
      kctx.body = page('Sign-in could not continue', '<h1>Sign-in could not continue</h1>');
      return;
    }
    const script = `window.parent.postMessage(${scriptSafe(JSON.stringify(params))}, ${scriptSafe(JSON.stringify(origin))});`;
    kctx.status = 'error' in params ? 400 : 200;
    kctx.response.remove('x-frame-options');
    const csp = kctx.response.get('content-security-policy');
    if (csp) {
      kctx.set(
        'content-security-policy',
        csp
          .split(';')
          .map((d) => d.trim())
          .map((d) => (d.startsWith('frame-ancestors') ? `frame-ancestors ${origin}` : d))
          .join('; '),
      );
    }
    allowInlineScript(kctx, script);
    kctx.body = page('Signing in', `<script>${script}</script>`);
  };
}

/**
 * Builds the OpenID provider (node-oidc-provider, OpenID Certified). Authorization code + PKCE S256 for
 * every client, JWT access tokens for the portal APIs carrying customerId and onBehalfOf, rotating refresh
 * tokens, RP-initiated logout, all state in the database. There is no login page: the authorize request
 * carries a one-time sessionToken (see mount.ts), otherwise it ends with login_required.
 */
export function createProvider(ctx: OidcContext, keys: OidcKeys): Provider {
  const { config, clock } = ctx;
  const issuer = oidcIssuer(config);
  const audience = apiAudience(config);
  const accessTokenTtl = config.oidc.accessTokenTtl;
  const sessionTtl = config.oidc.sessionTtl;
  const nowSeconds = () => Math.floor(clock.now().getTime() / 1000);
  const identity = () => identityPort(ctx);
  const portalOrigins = new Set([new URL(config.publicUrl).origin]);
  const redirectUris = [`${config.publicUrl}/login/callback`];
  // Where okta_post_message may post to: the origins of registered redirect URIs.
  const registeredOrigins = new Set(redirectUris.map((u) => new URL(u).origin));
  const alg = keys.current.alg as 'RS256';

  const integration = integrationAudience(config);
  const integrationClients = new Map(config.integration.clients.map((c) => [c.clientId, c]));
  // The integration API: client credentials only, for the insurer's systems; short-lived JWTs.
  const integrationApi: ResourceServer = {
    scope: integrationScopes.join(' '),
    audience: integration,
    accessTokenTTL: accessTokenTtl,
    accessTokenFormat: 'jwt',
    jwt: { sign: { alg } },
  };

  const portalApi: ResourceServer = {
    // `openid` too, as Okta's access tokens carry it: the token response's scope then names it, so a
    // client refreshing with that scope (okta-auth-js does) gets an ID token, and /v1/userinfo accepts it.
    // The standard `profile` and `email` too, for a client that asks for them: /v1/userinfo answers each
    // scope's claims only (OIDC Core 5.4), so the token's scopes must say which were granted.
    scope: `openid profile email ${PORTAL_SCOPE}`,
    audience,
    accessTokenTTL: accessTokenTtl,
    accessTokenFormat: 'jwt',
    jwt: { sign: { alg } },
  };

  const configuration: Configuration = {
    adapter: createAdapterFactory(ctx.db, clock),
    clients: [
      {
        client_id: PORTAL_CLIENT_ID,
        client_name: 'Customer portal',
        application_type: 'web',
        token_endpoint_auth_method: 'none',
        redirect_uris: redirectUris,
        post_logout_redirect_uris: [`${config.publicUrl}/login`],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        scope: `openid offline_access profile email ${PORTAL_SCOPE}`,
        id_token_signed_response_alg: alg,
      },
      // The insurer's systems (docs/integration.md): client credentials for the integration API only.
      ...config.integration.clients.map((c) => ({
        client_id: c.clientId,
        client_name: `Integration client ${c.clientId}`,
        grant_types: ['client_credentials'],
        response_types: [],
        redirect_uris: [],
        scope: c.scopes.join(' '),
        ...(c.secretSha256
          ? // The provider needs a client_secret to accept secret authentication; it holds the hash, which
            // compareClientSecret (below) checks the presented secret against. client_secret_jwt, which
            // would use it as a key, is not enabled.
            { token_endpoint_auth_method: 'client_secret_basic' as const, client_secret: c.secretSha256[0]! }
          : {
              token_endpoint_auth_method: 'private_key_jwt' as const,
              jwks: c.jwks as NonNullable<Configuration['jwks']>,
            }),
      })),
    ],
    clientDefaults: {
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      id_token_signed_response_alg: alg,
    },
    jwks: { keys: keys.signing as NonNullable<Configuration['jwks']>['keys'] },
    cookies: {
      keys: keys.cookieKeys,
      long: { ...sessionCookieOptions(ctx) },
      short: { httpOnly: true, sameSite: 'lax', secure: sessionCookieOptions(ctx).secure, signed: true },
    },
    // The claims each scope allows, as userinfo answers them (OpenID Connect Core 5.4, as at Okta): the
    // portal's own sign-in asks for `openid portal.customer`, so its ID token names the subject and the
    // customer, and the email address only when `email` is asked for (issue 38).
    claims: {
      openid: ['sub'],
      profile: ['name', 'given_name', 'family_name'],
      email: ['email', 'email_verified'],
      [PORTAL_SCOPE]: ['customerId'],
    },
    // Code flow only: the ID token carries the claims of its scopes.
    conformIdTokenClaims: false,
    scopes: ['openid', 'offline_access', 'profile', 'email', PORTAL_SCOPE, ...integrationScopes],
    extraParams: ['sessionToken'],
    responseTypes: ['code'],
    clientAuthMethods: ['none', 'client_secret_basic', 'private_key_jwt'],
    pkce: { required: () => true },
    routes: { ...OIDC_ROUTES },
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      dPoP: { enabled: false },
      pushedAuthorizationRequests: { enabled: false },
      // A public client may introspect its own tokens (the library's default policy), as at Okta.
      introspection: {
        enabled: true,
        allowedPolicy: (_kctx, client, token) => token.clientId === client.clientId,
      },
      revocation: {
        enabled: true,
        allowedPolicy: (_kctx, client, token) => token.clientId === client.clientId,
      },
      userinfo: { enabled: true },
      rpInitiatedLogout: {
        enabled: true,
        // Okta's /v1/logout signs out at once; the provider needs its own form (xsrf) posted, so post it.
        async logoutSource(kctx, form) {
          const script = "document.getElementById('op.logoutForm').submit();";
          allowInlineScript(kctx, script);
          const formWithChoice = form.replace(
            '</form>',
            '<input type="hidden" name="logout" value="yes"></form>',
          );
          kctx.type = 'html';
          kctx.body = page(
            'Signing out',
            `<h1>Signing you out</h1>${formWithChoice}<noscript><p><button type="submit" form="op.logoutForm">Sign out</button></p></noscript><script>${script}</script>`,
          );
        },
        async postLogoutSuccessSource(kctx) {
          kctx.type = 'html';
          kctx.body = page(
            'Signed out',
            `<h1>You have signed out</h1><p><a href="${escapeHtml(`${config.publicUrl}/login`)}">Sign in again</a></p>`,
          );
        },
      },
      resourceIndicators: {
        enabled: true,
        // The portal SPA's tokens are for the portal's APIs, an integration client's for the integration
        // API; neither can ask for the other's.
        defaultResource: (_kctx, client) =>
          client && integrationClients.has(client.clientId) ? integration : audience,
        useGrantedResource: () => true,
        getResourceServerInfo: (_kctx, resourceIndicator, client) => {
          const isIntegration = integrationClients.has(client.clientId);
          if (resourceIndicator === audience && !isIntegration) return portalApi;
          if (resourceIndicator === integration && isIntegration) return integrationApi;
          throw new errors.InvalidTarget();
        },
      },
    },
    enabledJWA: {
      idTokenSigningAlgValues: ['ES256', 'RS256', 'PS256', 'EdDSA'],
    },
    ttl: {
      AccessToken: (_kctx, token) => token.resourceServer?.accessTokenTTL ?? accessTokenTtl,
      AuthorizationCode: AUTHORIZATION_CODE_TTL,
      ClientCredentials: (_kctx, token) => token.resourceServer?.accessTokenTTL ?? accessTokenTtl,
      IdToken: accessTokenTtl,
      Interaction: INTERACTION_TTL,
      Grant: sessionTtl,
      // Sessions and their refresh tokens end a fixed time after sign-in; activity does not extend them.
      Session: (_kctx, session) =>
        session.loginTs ? Math.max(1, session.loginTs + sessionTtl - nowSeconds()) : INTERACTION_TTL,
      // A refresh token lives as long as what remains of the sign-in's session (auth_time is on our clock).
      RefreshToken: (_kctx, token) =>
        token.authTime ? Math.max(1, token.authTime + sessionTtl - nowSeconds()) : sessionTtl,
    },
    // Refresh tokens for the SPA without offline_access: they die with the session (sign-out ends them).
    issueRefreshToken: (_kctx, client) => client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: true,
    async loadExistingGrant(kctx) {
      const { oidc } = kctx;
      const client = oidc.client!;
      const session = oidc.session!;
      const grantId = oidc.result?.consent?.grantId ?? session.grantIdFor(client.clientId);
      let grant = grantId ? await oidc.provider.Grant.find(grantId) : undefined;
      if (grant && grant.accountId !== session.accountId) grant = undefined;
      // First-party client: what it asks for (within its registered scope) is granted, no consent screen.
      grant ??= new oidc.provider.Grant({ clientId: client.clientId, accountId: session.accountId! });
      grant.addOIDCScope([...oidc.requestParamOIDCScopes]);
      grant.addOIDCClaims([...oidc.requestParamClaims]);
      for (const [indicator, server] of Object.entries(oidc.resourceServers ?? {})) {
        const wanted = [...oidc.requestParamScopes].filter((s) => server.scopes.has(s));
        if (wanted.length > 0) grant.addResourceScope(indicator, wanted.join(' '));
      }
      await grant.save();
      // What the customer sees of this sign-in under "Where you're signed in" (sign-in-sessions.ts).
      const user = await identity().getUser(session.accountId!);
      if (user?.customerId) {
        await recordSignInSession(ctx.db, {
          grantId: grant.jti,
          accountId: session.accountId!,
          customerId: user.customerId,
          userAgent: kctx.get('user-agent'),
          // The address Fastify derived under TRUST_PROXY (mount.ts hands it over as X-Forwarded-For).
          address: kctx.ip,
          startedAt: new Date((session.loginTs ?? nowSeconds()) * 1000),
          now: clock.now(),
        });
      }
      return grant;
    },
    async findAccount(_kctx, sub) {
      const user = await identity().getUser(sub);
      if (!user || !user.customerId || !user.active) return undefined;
      const customerId = user.customerId;
      return {
        accountId: sub,
        claims: () => ({
          sub,
          customerId,
          name: `${user.firstName} ${user.lastName}`.trim(),
          given_name: user.firstName,
          family_name: user.lastName,
          email: user.login,
          email_verified: true,
        }),
      };
    },
    async extraTokenClaims(_kctx, token) {
      if (token.kind !== 'AccessToken' || !token.accountId) return undefined;
      const user = await identity().getUser(token.accountId);
      if (!user?.customerId) throw new errors.InvalidGrant('the account has no customer record');
      // Self-service: the customer acts for themselves. (Agents acting for a customer would differ here.)
      // `gid` names the sign-in grant, so a password change can end every other session but this one.
      return {
        customerId: user.customerId,
        onBehalfOf: user.customerId,
        ...(token.grantId ? { gid: token.grantId } : {}),
      };
    },
    formats: {
      customizers: {
        // Access token lifetimes follow the injected clock, as every other lifetime in the portal does.
        jwt(_kctx, _token, jwt) {
          const payload = jwt.payload as { iat: number; exp: number };
          const lifetime = payload.exp - payload.iat;
          payload.iat = nowSeconds();
          payload.exp = payload.iat + lifetime;
        },
      },
    },
    interactions: {
      url: (_kctx, interaction) => `${issuerPath(ctx)}/interaction/${interaction.uid}`,
    },
    clientBasedCORS: (_kctx, origin, client) =>
      portalOrigins.has(origin) || client.redirectUris?.some((u) => new URL(u).origin === origin) === true,
    async renderError(kctx, out) {
      kctx.type = 'html';
      kctx.body = page(
        'Sign-in could not continue',
        `<h1>Sign-in could not continue</h1><p>${escapeHtml(String(out.error_description ?? out.error))}</p><p><a href="${escapeHtml(`${config.publicUrl}/login`)}">Go to sign in</a></p>`,
      );
    },
  };

  const provider = new Provider(issuer, configuration);
  // Integration clients' secrets are configured hashed (SHA-256 of a generated secret of 32+ random
  // bytes: a slow hash adds nothing to that much entropy, decision 019); the library's documented way to
  // compare hashed secrets is this method of its Client model (node-oidc-provider #631).
  //
  // HTTP Basic credentials are form-encoded first (RFC 6749 §2.3.1), so the library decodes them, and a
  // `+` arrives as a space. `curl -u id:secret` and most HTTP clients send a secret as it is, so a secret
  // with a `+` (half of those made by `openssl rand -base64 32`, as our docs once said) was refused. The
  // secret as sent is also tried: a space never occurs in a secret we make (`npm run
  // integration:client` makes them from the URL-safe alphabet), and trying both reads every hash twice
  // whatever was sent, so the time taken says nothing either way (issue 38).
  provider.Client.prototype.compareClientSecret = function compareClientSecret(
    this: { clientId: string },
    actual: string,
  ) {
    const hashes = integrationClients.get(this.clientId)?.secretSha256;
    if (!hashes || typeof actual !== 'string') return false;
    const presented = [actual, actual.replaceAll(' ', '+')].map((candidate) =>
      createHash('sha256').update(candidate).digest(),
    );
    // Every configured hash is compared with both, so the time taken says nothing about which matched.
    return presented
      .flatMap((digest) => hashes.map((hash) => timingSafeEqual(digest, Buffer.from(hash, 'hex'))))
      .reduce((any, match) => any || match, false);
  };
  // mount.ts sets X-Forwarded-Host/Proto from the configured issuer on every request it hands over, so
  // URLs and cookie security follow configuration; X-Forwarded-For is set there to the client address
  // Fastify derived under TRUST_PROXY.
  provider.proxy = true;
  // Not in the library's type definitions; a documented extension point of node-oidc-provider.
  (
    provider as unknown as {
      registerResponseMode(name: string, handler: ReturnType<typeof oktaPostMessage>): void;
    }
  ).registerResponseMode(OKTA_POST_MESSAGE, oktaPostMessage(registeredOrigins));
  return provider;
}
