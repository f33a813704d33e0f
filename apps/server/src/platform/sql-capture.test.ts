import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { createTestApp, type TestContext } from '../../test/helpers';
import { signIn, type SignedIn } from '../../test/sign-in';
import type { CapturedCall } from './sql-capture';

const dir = mkdtempSync(path.join(os.tmpdir(), 'sql-capture-'));
const file = path.join(dir, 'capture.jsonl');
let t: TestContext;
let helen: SignedIn;

beforeAll(async () => {
  t = await createTestApp({ PORTAL_SQL_CAPTURE_FILE: file });
  helen = await signIn(t, 'helen.dawson@example.co.uk');
});
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

const captured = (): CapturedCall[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as CapturedCall);

describe('SQL capture for the benchmarks (PORTAL_SQL_CAPTURE_FILE)', () => {
  it("appends the statements of a request that asks for it, with their parameters and rows, and no other request's", async () => {
    await t.app.inject({
      url: `/api/v1/profile/${helen.customerId}`,
      headers: { authorization: helen.authorization },
    });
    const res = await t.app.inject({
      url: `/api/v1/profile/${helen.customerId}`,
      headers: {
        authorization: helen.authorization,
        'x-portal-sql-capture': '1',
        'x-correlationid': 'capture-profile-1',
      },
    });
    expect(res.statusCode).toBe(200);
    const calls = captured().filter((c) => c.correlationId === 'capture-profile-1');
    expect(calls).toHaveLength(1);
    const [call] = calls;
    expect(call).toMatchObject({ method: 'GET', url: `/api/v1/profile/${helen.customerId}`, status: 200 });
    expect(call!.statements.length).toBeGreaterThan(0);
    // The customer's own row is read with the customer id as a parameter, never inlined in the text.
    const read = call!.statements.find((s) => s.params.includes(helen.customerId));
    expect(read).toBeDefined();
    expect(read!.sql).not.toContain(helen.customerId);
    expect(read!.rows).toBeGreaterThan(0);
    for (const s of call!.statements) expect(s.endMs).toBeGreaterThanOrEqual(s.startMs);
    // The request without the header left no line.
    expect(captured().every((c) => c.correlationId === 'capture-profile-1' || c.url !== call!.url)).toBe(
      true,
    );
  });

  it('is refused in production', () => {
    expect(() =>
      loadConfig({ NODE_ENV: 'production', PORTAL_SQL_CAPTURE_FILE: file } as NodeJS.ProcessEnv),
    ).toThrow(/PORTAL_SQL_CAPTURE_FILE: not allowed in production/);
  });
});
