import { loadConfig } from '../../config';
import { describe, expect, it } from 'vitest';
import { databases } from '../../../test/helpers';
import { ManualClock } from '../../platform/clock';
import type { Db, Queryable } from '../../platform/db';
import { HttpError } from '../../platform/errors';
import type { ModuleContext } from '../../platform/module';
import type { Services } from '../../platform/services';
import { seedCustomers, seedPolicies } from '../../db/demo/records';
import { createServices } from '..';

class Rollback extends Error {}

/**
 * A Db whose every statement runs inside one outer transaction (nested transactions become savepoints),
 * so a test on the shared PostgreSQL server leaves nothing behind when the outer one is rolled back.
 */
function insideTransaction(tx: Queryable, kind: Db['kind']): Db {
  let savepoints = 0;
  return {
    kind,
    query: (sql, params) => tx.query(sql, params),
    async transaction(fn) {
      const name = `sp_${++savepoints}`;
      await tx.query(`SAVEPOINT ${name}`);
      try {
        const result = await fn(tx);
        await tx.query(`RELEASE SAVEPOINT ${name}`);
        return result;
      } catch (error) {
        await tx.query(`ROLLBACK TO SAVEPOINT ${name}`);
        throw error;
      }
    },
    exec: async (sql) => {
      await tx.query(sql);
    },
    close: async () => undefined,
  };
}

/** Runs body against a fresh services graph inside a transaction that is always rolled back. */
async function withServices(
  open: () => Promise<Db>,
  body: (s: { db: Db; services: Services; clock: ManualClock; ctx: ModuleContext }) => Promise<void>,
) {
  const outer = await open();
  try {
    await outer
      .transaction(async (tx) => {
        const db = insideTransaction(tx, outer.kind);
        const clock = new ManualClock();
        const services = {} as Services;
        const ctx: ModuleContext = { config: loadConfig({ NODE_ENV: 'test' }), db, clock, services };
        // Every module's services, as the app builds them (the seeds write through the integration API's).
        await createServices(ctx);
        await body({ db, services, clock, ctx });
        throw new Rollback();
      })
      .catch((error: unknown) => {
        if (!(error instanceof Rollback)) throw error;
      });
  } finally {
    await outer.close();
  }
}

async function httpErrorOf(promise: Promise<unknown>): Promise<HttpError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(HttpError);
  return error as HttpError;
}

describe.each(databases())('customer records on $name', ({ open }) => {
  it('finds customers by date of birth and postcode however the postcode is typed', async () => {
    await withServices(open, async ({ services }) => {
      for (const typed of ['HR8 2AB', 'hr82ab', '  hr8  2ab ', 'Hr8\t2Ab']) {
        const found = await services.customers.findByDobAndPostcode('1952-04-17', typed);
        expect(found.map((c) => c.customerId)).toEqual(['C1000001']);
      }
      const [margaret] = await services.customers.findByDobAndPostcode('1952-04-17', 'HR8 2AB');
      expect(margaret).toEqual({
        customerId: 'C1000001',
        firstName: 'Margaret',
        lastName: 'Thompson',
        dateOfBirth: '1952-04-17',
        email: 'margaret.thompson@example.co.uk',
        mobileNumber: '07700900123',
        landlineNumber: '01632960456',
        postCode: 'HR8 2AB',
      });
    });
  });

  it('finds nobody for a wrong date of birth, a wrong postcode or input that is not a date', async () => {
    await withServices(open, async ({ services }) => {
      expect(await services.customers.findByDobAndPostcode('1952-04-18', 'HR8 2AB')).toEqual([]);
      expect(await services.customers.findByDobAndPostcode('1952-04-17', 'HR8 2AC')).toEqual([]);
      expect(await services.customers.findByDobAndPostcode('1952-02-30', 'HR8 2AB')).toEqual([]);
      expect(await services.customers.findByDobAndPostcode('17/04/1952', 'HR8 2AB')).toEqual([]);
      expect(await services.customers.findByDobAndPostcode('1952-04-17', '')).toEqual([]);
      expect(await services.customers.findByDobAndPostcode('1952-04-17', 'HR8-2AB')).toEqual([]);
    });
  });

  it('finds customers for the contact centre: by ids, email in any case, surname with date of birth and postcode', async () => {
    await withServices(open, async ({ services }) => {
      const ids = (list: Array<{ customerId: string }>) => list.map((c) => c.customerId);
      const { findForStaff } = services.customers;
      const [margaret] = await findForStaff({ by: 'ids', customerIds: ['C1000001', 'C1000001'] }, 10);
      expect(margaret).toMatchObject({ customerId: 'C1000001', title: 'Mrs', lastName: 'Thompson' });
      expect(
        ids(await findForStaff({ by: 'ids', customerIds: ['C1000002', 'C1000001', 'C0000000'] }, 10)),
      ).toEqual(['C1000001', 'C1000002']);
      expect(ids(await findForStaff({ by: 'ids', customerIds: ['C1000002', 'C1000001'] }, 1))).toEqual([
        'C1000001',
      ]);
      expect(ids(await findForStaff({ by: 'ids', customerIds: [] }, 10))).toEqual([]);
      expect(ids(await findForStaff({ by: 'email', email: ' MARGARET.Thompson@example.co.uk' }, 10))).toEqual(
        ['C1000001'],
      );
      expect(ids(await findForStaff({ by: 'email', email: 'not an email' }, 10))).toEqual([]);
      const byName = (surname: string, dateOfBirth = '1952-04-17', postcode = 'HR8 2AB') =>
        findForStaff({ by: 'nameAndBirth', surname, dateOfBirth, postcode }, 10).then(ids);
      for (const surname of ['Thompson', 'thompson', ' THOM PSON ', 'tHoMpSoN']) {
        expect(await byName(surname)).toEqual(['C1000001']);
      }
      expect(await byName('Thomson')).toEqual([]);
      expect(await byName('Thompson', '1952-04-18')).toEqual([]);
      expect(await byName('Thompson', '1952-04-17', 'HR8 2AC')).toEqual([]);
      expect(await byName('Thompson', '1952-02-30')).toEqual([]);
      expect(await byName('   ')).toEqual([]);
      expect(await byName("Thompson' OR '1'='1")).toEqual([]);
    });
  });

  it("reads a customer's paperless and marketing choices for the contact centre", async () => {
    await withServices(open, async ({ services }) => {
      const choices = await services.customers.choicesOf('C1000001');
      expect(choices).toEqual({
        paperless: expect.any(Boolean),
        marketing: {
          email: expect.toBeOneOf([true, false, null]),
          phone: expect.toBeOneOf([true, false, null]),
          post: expect.toBeOneOf([true, false, null]),
          online: expect.toBeOneOf([true, false, null]),
        },
      });
      expect(await services.customers.choicesOf('C0000000')).toEqual({
        paperless: false,
        marketing: { email: null, phone: null, post: null, online: null },
      });
    });
  });

  it('finds the holder of a policy number, typed in any case, and nobody for an unknown one', async () => {
    await withServices(open, async ({ services }) => {
      // As registration asks (the policy module knows the policy, this one the customer).
      const holderOf = async (policyNumber: string) => {
        const policy = await services.policies.findByNumber(policyNumber);
        return policy ? services.customers.get(policy.customerId) : null;
      };
      expect((await holderOf('507P87654321'))?.customerId).toBe('C1000005');
      expect((await holderOf(' 102x4567891 '))?.customerId).toBe('C1000001');
      expect((await holderOf('102q45678912'))?.customerId).toBe('C1000001');
      expect(await holderOf('999X9999999')).toBeNull();
      expect(await holderOf('')).toBeNull();
    });
  });

  it('gets a customer by id, null for an unknown one; a customer with no email on file has null', async () => {
    await withServices(open, async ({ services }) => {
      const priya = await services.customers.get('C1000005');
      expect(priya).toMatchObject({ customerId: 'C1000005', email: null, dateOfBirth: '1985-06-30' });
      const david = await services.customers.get('C1000002');
      expect(david).toMatchObject({ mobileNumber: null, landlineNumber: '01632960789' });
      expect(await services.customers.get('C9999999')).toBeNull();
    });
  });

  it('sets an email, refusing one another customer has in any letter case', async () => {
    await withServices(open, async ({ db, services }) => {
      await services.customers.setEmail('C1000005', '  priya.shah@example.co.uk ');
      expect((await services.customers.get('C1000005'))?.email).toBe('priya.shah@example.co.uk');

      const taken = await httpErrorOf(
        db.transaction((tx) =>
          services.customers.setEmail('C1000005', 'MARGARET.Thompson@example.co.uk', tx),
        ),
      );
      expect(taken.statusCode).toBe(409);
      expect(taken.code).toBe('EMAIL_IN_USE');
      expect((await services.customers.get('C1000005'))?.email).toBe('priya.shah@example.co.uk');

      // The contract's email rule, the one the web form uses: a doubled dot or an undotted domain is refused.
      for (const address of ['not an email', 'priya..shah@example.co.uk', 'priya@localhost']) {
        const invalid = await httpErrorOf(services.customers.setEmail('C1000005', address));
        expect(invalid.statusCode, address).toBe(400);
      }
      const unknown = await httpErrorOf(services.customers.setEmail('C9999999', 'someone@example.co.uk'));
      expect(unknown.statusCode).toBe(404);
    });
  });

  it("commits an email with the caller's transaction and rolls it back with it", async () => {
    await withServices(open, async ({ db, services }) => {
      await db
        .transaction(async (tx) => {
          await services.customers.setEmail('C1000005', 'priya@example.co.uk', tx);
          throw new Error('the caller failed after setting the email');
        })
        .catch(() => undefined);
      expect((await services.customers.get('C1000005'))?.email).toBeNull();
      await db.transaction((tx) => services.customers.setEmail('C1000005', 'priya@example.co.uk', tx));
      expect((await services.customers.get('C1000005'))?.email).toBe('priya@example.co.uk');
    });
  });

  it('seeds idempotently: no duplicates, customer choices kept, insurer reference data restored', async () => {
    await withServices(open, async ({ db, services, clock, ctx }) => {
      const count = async (table: string) =>
        Number((await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`)).rows[0]?.n);
      const before = {
        customers: await count('customer'),
        preferences: await count('customer_preferences'),
        policies: await count('policy'),
      };
      expect(before.customers).toBeGreaterThanOrEqual(5);

      await services.customers.setEmail('C1000005', 'priya@example.co.uk');
      await db.query(
        `UPDATE customer_preferences SET marketing_online = false WHERE customer_id = 'C1000002'`,
      );
      await db.query(`UPDATE customer SET town = 'Nowhere' WHERE customer_id = 'C1000003'`);
      await db.query(`UPDATE policy SET status = 'Expired' WHERE policy_number = '305X1122334'`);

      clock.advance(60_000);
      for (let run = 0; run < 2; run++) {
        await seedCustomers(ctx);
        await seedPolicies(ctx);
      }

      expect({
        customers: await count('customer'),
        preferences: await count('customer_preferences'),
        policies: await count('policy'),
      }).toEqual(before);
      expect((await services.customers.get('C1000005'))?.email).toBe('priya@example.co.uk');
      const online = await db.query<{ marketing_online: boolean | null }>(
        `SELECT marketing_online FROM customer_preferences WHERE customer_id = 'C1000002'`,
      );
      expect(online.rows[0]?.marketing_online).toBe(false);
      const town = await db.query<{ town: string }>(
        `SELECT town FROM customer WHERE customer_id = 'C1000003'`,
      );
      expect(town.rows[0]?.town).toBe('Bideford');
      expect((await services.policies.findByNumber('305X1122334'))?.status).toBe('Active');
    });
  });

  it('seeds tailored online marketing as answered only for customers who made the first-sign-in choice', async () => {
    await withServices(open, async ({ db, ctx }) => {
      // What the seed writes, not what a test on a shared database has just chosen for these customers.
      await db.query(
        `DELETE FROM customer_preferences WHERE customer_id IN ('C1000001', 'C1000002', 'C1000003')`,
      );
      await seedCustomers(ctx);
      const { rows } = await db.query<{
        customer_id: string;
        marketing_online: boolean | null;
        paperless: boolean;
      }>(
        `SELECT customer_id, marketing_online, paperless FROM customer_preferences
         WHERE customer_id IN ('C1000001', 'C1000002', 'C1000003') ORDER BY customer_id`,
      );
      expect(rows).toEqual([
        { customer_id: 'C1000001', marketing_online: true, paperless: true },
        { customer_id: 'C1000002', marketing_online: null, paperless: false },
        { customer_id: 'C1000003', marketing_online: null, paperless: false },
      ]);
    });
  });

  it('keeps one email per customer in any letter case at the database level', async () => {
    await withServices(open, async ({ db }) => {
      const error = await db
        .transaction((tx) =>
          tx.query(`UPDATE customer SET email = 'DAVID.OKAFOR@example.co.uk' WHERE customer_id = 'C1000003'`),
        )
        .then(
          () => null,
          (e: unknown) => e as { code?: string },
        );
      expect(error?.code).toBe('23505');
    });
  });
});
