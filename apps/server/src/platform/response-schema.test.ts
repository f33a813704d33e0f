import { allCalls } from '@portal/contracts';
import { getPolicyCall, listPoliciesCall } from '@portal/contracts/policy';
import fastJsonStringify from 'fast-json-stringify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/helpers';
import { signIn, type SignedIn } from '../../test/sign-in';
import { serializerSchema } from './response-schema';
import { checkOutput } from './validate';

type Schema = Parameters<typeof serializerSchema>[0];

/** The success schema of a call (its lowest 2xx), as route() picks it. */
function successOf(call: { responses: Record<number, unknown> }): Schema | undefined {
  const status = Object.keys(call.responses)
    .map(Number)
    .filter((s) => s >= 200 && s < 300)
    .sort((a, b) => a - b)[0];
  return call.responses[status ?? 200] as Schema | undefined;
}

describe('answers written by serializers compiled from the contracts', () => {
  it('compiles for the customer data calls, and for every call whose schema it takes', () => {
    const compiled = allCalls().filter((call) => {
      const schema = successOf(call);
      const json = schema && serializerSchema(schema);
      if (json) expect(() => fastJsonStringify(json as never)).not.toThrow();
      return json !== undefined;
    });
    const ids = compiled.map((call) => call.id);
    for (const id of [
      'policy.list',
      'policy.get',
      'policy.quotes',
      'profile.get',
      'document.policyList',
      'document.billingList',
    ]) {
      expect(ids).toContain(id);
    }
  });

  it('refuses what it cannot write as zod would (a union), so that route keeps zod', () => {
    const authn = allCalls().find((call) => call.id === 'identity.authn')!;
    expect(serializerSchema(successOf(authn)!)).toBeUndefined();
  });

  describe('on real answers', () => {
    let t: TestContext;
    let helen: SignedIn;
    beforeAll(async () => {
      t = await createTestApp();
      helen = await signIn(t, 'helen.dawson@example.co.uk');
    });
    afterAll(() => t.close());

    it('writes exactly what zod would leave, and nothing the contract does not name', async () => {
      const list = await t.app.inject({
        url: `/api/v1/policy/${helen.customerId}?page=1`,
        headers: { authorization: helen.authorization },
      });
      expect(list.statusCode).toBe(200);
      const policies = list.json<{ active: Array<{ policyNumber: string }> }>();
      const one = await t.app.inject({
        url: `/api/v1/policy/${helen.customerId}/${policies.active[0]!.policyNumber}`,
        headers: { authorization: helen.authorization },
      });
      expect(one.statusCode).toBe(200);

      for (const [call, body] of [
        [listPoliciesCall, list.json()],
        [getPolicyCall, one.json()],
      ] as const) {
        const schema = successOf(call)!;
        const write = fastJsonStringify(serializerSchema(schema) as never);
        // Fields a handler might carry by mistake, at the top and deep inside.
        const leaky = JSON.parse(JSON.stringify(body), (_key, value: unknown) =>
          value && typeof value === 'object' && !Array.isArray(value)
            ? { ...value, passwordHash: 'secret', customerNotes: 'internal' }
            : value,
        ) as unknown;
        const written = write(leaky);
        expect(written).not.toContain('secret');
        expect(written).not.toContain('internal');
        expect(JSON.parse(written)).toEqual(checkOutput(schema, leaky as never));
        expect(JSON.parse(written)).toEqual(body);
      }
    });
  });
});
