import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/helpers';

/*
 * Per-address limits behind a load balancer (TRUST_PROXY): the client writes the leftmost X-Forwarded-For
 * entries itself, so only the entries added by trusted proxies may be believed. The forgotten-password
 * call allows 20 requests an hour from one address.
 */
describe('client addresses behind proxies', () => {
  let t: TestContext | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  const resetFrom = (app: TestContext, forwardedFor: string) =>
    app.app.inject({
      method: 'POST',
      url: '/Registration/resetPassword',
      payload: { email: 'nobody@example.org' },
      headers: { 'x-forwarded-for': forwardedFor },
    });

  /** Twenty-one requests from one client that writes a new made-up address in front of its own each time. */
  async function spoofing(app: TestContext, realAddress: string): Promise<number[]> {
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) {
      statuses.push((await resetFrom(app, `198.51.100.${i}, ${realAddress}`)).statusCode);
    }
    return statuses;
  }

  it('with a hop count, takes the address the one trusted proxy saw: made-up entries dodge nothing', async () => {
    t = await createTestApp({ TRUST_PROXY: '1' });
    const statuses = await spoofing(t, '203.0.113.7');
    expect(statuses.slice(0, 20).every((s) => s === 200)).toBe(true);
    expect(statuses[20]).toBe(429);
    // Another real client behind the same proxy is not held up.
    expect((await resetFrom(t, '203.0.113.8')).statusCode).toBe(200);
  });

  it('with the proxies listed by address, takes the rightmost address that is not one of them', async () => {
    // Requests made with inject come from 127.0.0.1: the load balancer here.
    t = await createTestApp({ TRUST_PROXY: '127.0.0.1, 10.0.0.0/8' });
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) {
      statuses.push((await resetFrom(t, `198.51.100.${i}, 203.0.113.9, 10.1.2.3`)).statusCode);
    }
    expect(statuses.slice(0, 20).every((s) => s === 200)).toBe(true);
    expect(statuses[20]).toBe(429);
  });

  it('without a trusted proxy, ignores X-Forwarded-For: every request counts for the socket address', async () => {
    t = await createTestApp({ TRUST_PROXY: 'false' });
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) statuses.push((await resetFrom(t, `198.51.100.${i}`)).statusCode);
    expect(statuses[20]).toBe(429);
  });
});
