import type { FastifyInstance } from 'fastify';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { demoStaff, STAND_IN_PASSWORD } from '../src/modules/staff/stand-in-idp';
import { outbox } from './identity-support';

/** The stand-in's demo staff member of each role. */
export const staffOf = {
  agent: demoStaff[0],
  'senior-agent': demoStaff[1],
  auditor: demoStaff[2],
  editor: demoStaff[3],
  publisher: demoStaff[4],
  operator: demoStaff[5],
} as const;

/** A browser's cookies for inject: name to value, whatever the path (the paths here do not overlap). */
export class CookieJar {
  private readonly cookies = new Map<string, string>();
  take(res: LightMyRequestResponse): LightMyRequestResponse {
    const header = res.headers['set-cookie'];
    for (const line of [header ?? []].flat()) {
      const [pair] = String(line).split(';');
      const at = pair!.indexOf('=');
      const name = pair!.slice(0, at).trim();
      const value = pair!.slice(at + 1).trim();
      if (value === '' || /max-age=0|expires=thu, 01 jan 1970/i.test(String(line))) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return res;
  }
  get(name: string): string | undefined {
    return this.cookies.get(name);
  }
  header(): string {
    return [...this.cookies].map(([n, v]) => `${n}=${v}`).join('; ');
  }
}

const local = (location: string | undefined) => {
  const url = new URL(String(location), 'http://localhost');
  return `${url.pathname}${url.search}`;
};

/**
 * Signs a demo staff member in through the stand-in workforce provider, as a browser would: the console's
 * sign-in, the provider's credentials and emailed code, and back to the console's callback. Answers the
 * browser's cookies (the staff session's among them) and the callback's answer.
 */
export async function staffSignIn(
  app: FastifyInstance,
  who: { email: string },
  options: { returnTo?: string; code?: (real: string) => string } = {},
): Promise<{ jar: CookieJar; callback: LightMyRequestResponse }> {
  const jar = new CookieJar();
  const get = async (url: string) =>
    jar.take(await app.inject({ method: 'GET', url, headers: { cookie: jar.header() } }));
  const post = async (url: string, form: Record<string, string>) =>
    jar.take(
      await app.inject({
        method: 'POST',
        url,
        headers: { cookie: jar.header(), 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams(form).toString(),
      }),
    );
  const start = await get(
    `/staff/sign-in${options.returnTo ? `?returnTo=${encodeURIComponent(options.returnTo)}` : ''}`,
  );
  expect(start.statusCode).toBe(303);
  const authorize = await get(local(start.headers.location));
  expect(authorize.statusCode).toBe(303);
  const interaction = local(authorize.headers.location);
  expect((await get(interaction)).statusCode).toBe(200);
  const credentials = await post(interaction, {
    step: 'credentials',
    email: who.email,
    password: STAND_IN_PASSWORD,
  });
  expect(credentials.statusCode).toBe(200);
  const [message] = (await outbox(app, who.email)).filter((m) => m.kind === 'staff-sign-in-code');
  const code = /is (\d{6})\./.exec(message?.body ?? '')?.[1] ?? '';
  const finished = await post(interaction, { step: 'code', code: options.code ? options.code(code) : code });
  expect(finished.statusCode).toBe(303);
  const resumed = await get(local(finished.headers.location));
  expect(resumed.statusCode).toBe(303);
  const callback = await get(local(resumed.headers.location));
  return { jar, callback };
}

/** A signed-in console: its cookies, CSRF token and roles, and a POST under /staff/api with both. */
export interface StaffConsole {
  jar: CookieJar;
  csrfToken: string;
  roles: string[];
  post(url: string, payload?: object, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
}

/** Signs a demo staff member in and reads their session (roles, CSRF token), ready to call the console. */
export async function staffConsole(app: FastifyInstance, who: { email: string }): Promise<StaffConsole> {
  const { jar, callback } = await staffSignIn(app, who);
  expect(callback.statusCode).toBe(303);
  const me = await app.inject({
    method: 'GET',
    url: '/staff/api/session',
    headers: { cookie: jar.header() },
  });
  expect(me.statusCode).toBe(200);
  const { csrfToken, roles } = me.json<{ csrfToken: string; roles: string[] }>();
  return {
    jar,
    csrfToken,
    roles,
    post: (url, payload, headers = {}) =>
      app.inject({
        method: 'POST',
        url,
        headers: { cookie: jar.header(), 'x-csrf-token': csrfToken, ...headers },
        ...(payload === undefined ? {} : { payload }),
      }),
  };
}
