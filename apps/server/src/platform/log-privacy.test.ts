/**
 * Nothing a customer tells us or we send them reaches the server log: passwords, one-time codes, link
 * tokens, state/session/access tokens, email addresses, phone numbers, dates of birth or postcodes. The
 * app logs with its real logging options (redaction and serializers) at the most verbose level, while
 * whole journeys run through it, the failing ones too (their errors are where values tend to leak).
 */
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loggerOptions } from '../app';
import { createTestApp, type TestContext } from '../../test/helpers';
import { signIn as signInToApi } from '../../test/sign-in';
import { latestLinkToken, margaret, outbox, post, signIn } from '../modules/identity/test-support';

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

  it('holds none of the secrets or personal data the journeys used', () => {
    expect(secrets.size).toBeGreaterThanOrEqual(14);
    const lower = log.toLowerCase();
    for (const [value, what] of secrets) {
      expect(lower.includes(value.toLowerCase()), `${what} (${value.slice(0, 4)}...) is in the log`).toBe(
        false,
      );
    }
  });
});
