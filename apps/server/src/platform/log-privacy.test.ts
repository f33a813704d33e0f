/**
 * Nothing a customer tells us or we send them reaches the server log: passwords, one-time codes, link
 * tokens, state/session/access/refresh tokens, interaction ids, authorization codes, OpenID state and
 * PKCE values, email addresses, phone numbers, dates of birth or postcodes. The
 * app logs with its real logging options (redaction and serializers) at the most verbose level, while
 * whole journeys run through it, the failing ones too (their errors are where values tend to leak).
 */
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loggerOptions } from '../app';
import { loggedPath } from './logging';
import { createTestApp, type TestContext } from '../../test/helpers';
import { signIn as signInToApi } from '../../test/sign-in';
import { latestLinkToken, margaret, outbox, post, signIn } from '../../test/identity-support';
import { staffConsole, staffOf } from '../../test/staff-sign-in';
import {
  authorize,
  CookieJar,
  freshCustomer,
  pkcePair,
  sessionTokenFor,
  tokenRequest,
  type TokenSet,
} from '../../test/oidc-support';

/** A cookie jar that also keeps every Set-Cookie line it was given. */
class RecordingJar extends CookieJar {
  readonly lines: string[] = [];
  override store(setCookie: string | string[] | undefined): void {
    this.lines.push(...([] as string[]).concat(setCookie ?? []));
    super.store(setCookie);
  }
}

const eleanor = {
  emailAddress: 'eleanor.hughes@example.co.uk',
  dateOfBirth: '1978-11-25',
  postCode: 'EX39 2QQ',
};

describe('the server log', () => {
  let t: TestContext;
  let log = '';
  /** Every value that must not be logged, with what it is (for the failure message). */
  const secrets = new Map<string, string>();
  const keep = (value: string | undefined, what: string) => {
    if (value && value.length >= 5) secrets.set(value, what);
  };

  beforeAll(async () => {
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        log += chunk.toString();
        done();
      },
    });
    t = await createTestApp(
      { LOG_LEVEL: 'trace' },
      { logger: (config) => ({ ...loggerOptions(config), stream }) },
    );
    const app = t.app;

    // A full sign-in: password, text code, sessionToken, OpenID authorize and token.
    const signedIn = await signInToApi(t, margaret.email);
    keep(signedIn.accessToken, 'an access token');
    keep(signedIn.sessionToken, 'a session token');
    for (const message of await outbox(app, margaret.mobile))
      keep(/\d{5,6}/.exec(message.body)?.[0], 'a code');
    // A browser's sign-in through the provider's pages: the interaction step (its id in the path), the
    // code back at the SPA's callback (in the query), then the code redeemed; and an interaction id
    // that is not one any more.
    const jar = new RecordingJar();
    const { verifier, challenge } = pkcePair();
    const { callback } = await authorize(
      t,
      {
        sessionToken: await sessionTokenFor(app, await freshCustomer(t)),
        code_challenge: challenge,
        code_challenge_method: 'S256',
      },
      jar,
    );
    const interactionId = /(?:^|\s)_interaction=([^;]+)/.exec(jar.lines.join('\n'))?.[1];
    keep(interactionId, 'an interaction id');
    keep(callback.searchParams.get('code') ?? undefined, 'an authorization code');
    keep(callback.searchParams.get('state') ?? undefined, 'an OpenID state');
    keep(challenge, 'a PKCE challenge');
    await app.inject({ method: 'GET', url: `${callback.pathname}${callback.search}` });
    const tokens = await tokenRequest(t, {
      grant_type: 'authorization_code',
      code: callback.searchParams.get('code')!,
      code_verifier: verifier,
      redirect_uri: `${t.config.publicUrl}/login/callback`,
    });
    keep(verifier, 'a PKCE verifier');
    keep(tokens.json<TokenSet>().refresh_token, 'a refresh token');
    keep(tokens.json<TokenSet>().id_token, 'an ID token');
    await app.inject({ method: 'GET', url: `/oauth2/default/interaction/${interactionId}` });
    await app.inject({ method: 'GET', url: `/oauth2/default/v1/authorize/${interactionId}` });
    // Reading her data with the token, and a wrong customer id with it.
    await app.inject({
      method: 'GET',
      url: `/api/v1/Preferences/${signedIn.customerId}/user`,
      headers: { authorization: signedIn.authorization },
    });
    await app.inject({
      method: 'GET',
      url: '/api/v1/Preferences/C1000002/user',
      headers: { authorization: signedIn.authorization },
    });
    // A second sign-in left at the code step, with a wrong code, then a wrong password.
    const started = await signIn(app, margaret.email, margaret.password);
    keep(started.stateToken, 'a state token');
    const factor = started.factors.find((f) => f.factorType === 'sms')!;
    await post(app, `/api/v1/authn/factors/${factor.id}/verify`, { stateToken: started.stateToken });
    await post(app, `/api/v1/authn/factors/${factor.id}/verify`, {
      stateToken: started.stateToken,
      passCode: '00000',
    });
    for (const message of await outbox(app, margaret.mobile))
      keep(/\d{5,6}/.exec(message.body)?.[0], 'a code');
    const wrong = await post(app, '/api/v1/authn', {
      username: margaret.email,
      password: 'NotHerPassword99',
    });
    expect(wrong.statusCode).toBe(401);
    keep('NotHerPassword99', 'a wrong password');
    // Registration: good details (an activation link), then details in the wrong shape.
    await post(app, '/Registration', eleanor);
    keep(await latestLinkToken(app, eleanor.emailAddress), 'an activation link token');
    await post(app, '/Registration', { ...eleanor, dateOfBirth: '25/11/1978', postCode: 'not a postcode!' });
    // A forgotten password: the emailed link, then its recovery token answering a state token.
    await post(app, '/Registration/resetPassword', { email: margaret.email });
    const resetToken = await latestLinkToken(app, margaret.email);
    keep(resetToken, 'a password reset token');
    const recovery = await post(app, '/api/v1/authn/recovery/token', { recoveryToken: resetToken });
    keep((recovery.json() as { stateToken?: string }).stateToken, 'a recovery state token');

    // The contact centre (issue 41): a staff sign-in, searches by email and by surname with date of birth
    // and postcode (one in the wrong shape), a record opened and an email changed, each with a reason.
    const senior = await staffConsole(app, staffOf['senior-agent']);
    keep(senior.jar.get('portal_staff'), 'a staff session cookie');
    keep(senior.csrfToken, 'a staff CSRF token');
    const reason = 'Call about Mrs Thompson ref 99812';
    const staffSearch = (query: object) => senior.post('/staff/api/customers/search', { reason, query });
    expect((await staffSearch({ by: 'email', email: margaret.email })).statusCode).toBe(200);
    await staffSearch({
      by: 'nameAndBirth',
      surname: 'Thompson',
      dateOfBirth: '1952-04-17',
      postcode: 'HR8 2AB',
    });
    const badSearch = await staffSearch({
      by: 'nameAndBirth',
      surname: 'Thompson',
      dateOfBirth: '17/04/1952',
      postcode: 'HR82AB!',
    });
    expect(badSearch.statusCode).toBe(400);
    expect((await senior.post('/staff/api/customers/C1000001/open', { reason })).statusCode).toBe(200);
    const brendaNew = 'brenda.log.check@example.org';
    const changed = await senior.post('/staff/api/customers/C1000013/change-email', {
      reason,
      email: brendaNew,
      identityChecked: true,
    });
    expect(changed.statusCode).toBe(200);
    keep(reason, "a staff member's reason");
    keep(brendaNew, 'an email address');
    keep('brenda.ashworth@example.co.uk', 'an email address');
    keep('1952-04-17', 'a date of birth');
    keep('17/04/1952', 'a date of birth');
    keep('HR82AB', 'a postcode');

    keep(margaret.password, 'a password');
    keep(margaret.email, 'an email address');
    keep(margaret.mobile, 'a phone number');
    keep(margaret.mobile.replace(/^0/, '+44'), 'a phone number');
    keep(margaret.mobile.replace(/^0/, '44'), 'a phone number');
    keep(eleanor.emailAddress, 'an email address');
    keep(eleanor.dateOfBirth, 'a date of birth');
    keep(eleanor.postCode, 'a postcode');
    keep('25/11/1978', 'a date of birth');
  }, 60_000);
  afterAll(() => t?.close());

  it('has a line for every request', () => {
    const lines = log.split('\n').filter(Boolean);
    expect(lines.length).toBeGreaterThan(20);
    for (const line of lines) expect(() => JSON.parse(line) as unknown).not.toThrow();
    expect(log).toContain('"path":"/api/v1/authn"');
  });

  it("names the provider's pages by their route, with the ids in their paths replaced", () => {
    expect(log).toContain('"path":"/oauth2/default/interaction/[redacted]"');
    expect(log).toContain('"path":"/oauth2/default/v1/authorize/[redacted]"');
    expect(log).toContain('"path":"/login/callback"');
    expect(log).toContain('"path":"/api/v1/Preferences/C1000001/user"');
  });

  it('holds none of the secrets or personal data the journeys used', () => {
    expect(secrets.size).toBeGreaterThanOrEqual(21);
    const lower = log.toLowerCase();
    for (const [value, what] of secrets) {
      expect(lower.includes(value.toLowerCase()), `${what} (${value.slice(0, 4)}...) is in the log`).toBe(
        false,
      );
    }
  });
});

describe('the logged path of a request', () => {
  it('drops the query and replaces ids and tokens, keeping routes, customer numbers and file names', () => {
    const cases: Array<[string, string]> = [
      ['/oauth2/default/v1/authorize?state=s1&code_challenge=c1&nonce=n1', '/oauth2/default/v1/authorize'],
      ['/login/callback?code=abc&state=def', '/login/callback'],
      ['/identity/oauth2/default/interaction/short', '/identity/oauth2/default/interaction/[redacted]'],
      ['/oauth2/default/v1/authorize/9rCg5_8nuici4gHvrpiMM', '/oauth2/default/v1/authorize/[redacted]'],
      ['/api/v1/authn/factors/smsZuaAL3sR4gV1K2MXg/verify', '/api/v1/authn/factors/[redacted]/verify'],
      ['/x/eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln', '/x/[redacted]'],
      ['/x/3f2b9c1e-7d4a-4b8e-9f00-123456789abc', '/x/[redacted]'],
      ['/api/v1/Preferences/C1000001/user', '/api/v1/Preferences/C1000001/user'],
      [
        '/assets/authentication-challenge-page-Ab12Cd34.js',
        '/assets/authentication-challenge-page-Ab12Cd34.js',
      ],
      ['/forgotten-password/new-password?token=abc', '/forgotten-password/new-password'],
    ];
    for (const [url, logged] of cases) expect(loggedPath(url), url).toBe(logged);
  });
});
