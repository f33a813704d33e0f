/**
 * The provider's cookies on a portal served over HTTPS: every cookie a sign-in sets is `Secure`, and
 * every cookie cleared (by the provider itself, by `DELETE /api/v1/sessions/me` and by `/v1/logout`) is
 * cleared with the attributes it was set with (Path, Secure, HttpOnly, SameSite), so a browser replaces
 * it rather than keeping a second one, and nothing about it goes out over plain HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/helpers';
import {
  authorize,
  autoSubmitForm,
  CookieJar,
  freshCustomer,
  pkcePair,
  sessionTokenFor,
  tokenRequest,
  type TokenSet,
} from '../../../test/oidc-support';

const PUBLIC_URL = 'https://portal.example.co.uk';

/** A cookie jar that also keeps every Set-Cookie line it was given. */
class RecordingJar extends CookieJar {
  readonly lines: string[] = [];
  override store(setCookie: string | string[] | undefined): void {
    this.lines.push(...([] as string[]).concat(setCookie ?? []));
    super.store(setCookie);
  }
}

interface CookieLine {
  name: string;
  cleared: boolean;
  /** The attributes a browser matches and guards a cookie by. */
  attributes: { path: string; secure: boolean; httpOnly: boolean; sameSite: string | undefined };
}

function parse(line: string): CookieLine {
  const [pair, ...attrs] = line.split(';').map((s) => s.trim());
  const name = pair!.slice(0, pair!.indexOf('='));
  const value = pair!.slice(pair!.indexOf('=') + 1);
  const attr = (key: string) =>
    attrs.find((a) => a.toLowerCase().startsWith(`${key}=`))?.slice(key.length + 1);
  const flag = (key: string) => attrs.some((a) => a.toLowerCase() === key);
  return {
    name,
    cleared: value === '' || /1970/.test(attr('expires') ?? '') || attr('max-age') === '0',
    attributes: {
      path: attr('path') ?? '/',
      secure: flag('secure'),
      httpOnly: flag('httponly'),
      sameSite: attr('samesite')?.toLowerCase(),
    },
  };
}

/** Each cookie cleared in `cleared` was set, earlier in `set`, with the same attributes. */
function expectClearedAsSet(set: string[], cleared: string[]) {
  const wasSet = new Map(
    set
      .map(parse)
      .filter((c) => !c.cleared)
      .map((c) => [c.name, c.attributes]),
  );
  const clearing = cleared.map(parse).filter((c) => c.cleared);
  expect(clearing.length).toBeGreaterThan(0);
  for (const c of clearing) {
    expect(wasSet.has(c.name), `${c.name} is cleared but was never set`).toBe(true);
    expect(c.attributes, `${c.name} is cleared with other attributes than it was set with`).toEqual(
      wasSet.get(c.name),
    );
  }
}

describe('provider cookies over HTTPS', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_URL });
  });
  afterAll(() => t.close());

  async function signInWithJar() {
    const jar = new RecordingJar();
    const { verifier, challenge } = pkcePair();
    const { callback } = await authorize(
      t,
      {
        sessionToken: await sessionTokenFor(t.app, await freshCustomer(t)),
        code_challenge: challenge,
        code_challenge_method: 'S256',
      },
      jar,
    );
    const tokens = await tokenRequest(t, {
      grant_type: 'authorization_code',
      code: callback.searchParams.get('code')!,
      code_verifier: verifier,
      redirect_uri: `${PUBLIC_URL}/login/callback`,
    });
    expect(tokens.statusCode).toBe(200);
    return { jar, tokens: tokens.json<TokenSet>() };
  }

  it('sets every cookie of a sign-in Secure and HttpOnly, and clears its interaction cookies as set', async () => {
    const { jar } = await signInWithJar();
    const lines = jar.lines.map(parse);
    expect(lines.map((c) => c.name)).toEqual(expect.arrayContaining(['_session', '_session.sig']));
    for (const c of lines) {
      expect(c.attributes, c.name).toMatchObject({ secure: true, httpOnly: true, sameSite: 'lax' });
    }
    expectClearedAsSet(jar.lines, jar.lines);
  });

  it('DELETE /api/v1/sessions/me clears the session cookies with the attributes they were set with', async () => {
    const { jar } = await signInWithJar();
    const res = await t.app.inject({
      method: 'DELETE',
      url: '/api/v1/sessions/me',
      headers: { cookie: jar.header('/api/v1/sessions/me') },
    });
    expect(res.statusCode).toBe(204);
    const cleared = ([] as string[]).concat((res.headers['set-cookie'] as string | string[]) ?? []);
    expect(cleared.map((l) => parse(l).name).sort()).toEqual(['_session', '_session.sig']);
    expectClearedAsSet(jar.lines, cleared);
  });

  it('/v1/logout clears the session cookies with the attributes they were set with', async () => {
    const { jar, tokens } = await signInWithJar();
    const cleared: string[] = [];
    const start = await t.app.inject({
      method: 'GET',
      url: `/oauth2/default/v1/logout?id_token_hint=${tokens.id_token}&post_logout_redirect_uri=${encodeURIComponent(`${PUBLIC_URL}/login`)}`,
      headers: { cookie: jar.header('/oauth2/default/v1/logout') },
    });
    expect(start.statusCode).toBe(200);
    const confirm = autoSubmitForm(start.body)!;
    const action = new URL(confirm.url, PUBLIC_URL);
    const done = await t.app.inject({
      method: 'POST',
      url: action.pathname,
      headers: {
        cookie: jar.header(action.pathname),
        'content-type': 'application/x-www-form-urlencoded',
      },
      payload: new URLSearchParams(confirm.form).toString(),
    });
    expect(done.statusCode).toBe(303);
    cleared.push(...([] as string[]).concat((done.headers['set-cookie'] as string | string[]) ?? []));
    expect(cleared.map((l) => parse(l).name)).toEqual(expect.arrayContaining(['_session', '_session.sig']));
    expectClearedAsSet(jar.lines, cleared);
  });
});
