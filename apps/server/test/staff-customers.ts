import { randomInt, randomUUID } from 'node:crypto';
import type { CustomerRecordInput } from '@portal/contracts/integration/records';
import type { TestContext } from './helpers';

/*
 * Customers of a test's own for the contact centre's tests: held through the integration service as the
 * insurer's records are (ids C9xxxxxx, numbers and addresses of their own), with an online account
 * (active, or waiting for activation) or none, and erased afterwards. A shared PostgreSQL test database's
 * demo customers are other tests' to sign in: these are locked, signed out and changed instead.
 */

export interface RunCustomer {
  customerId: string;
  firstName: string;
  lastName: string;
  email: string;
  password: string;
  mobileNumber: string;
  landlineNumber: string | null;
  dateOfBirth: string;
  postCode: string;
}

const actor = { clientId: 'staff-tests', correlationId: null };

/** A customer held for this test, with an active online account unless `account` says otherwise. */
export async function createRunCustomer(
  t: TestContext,
  options: {
    account?: 'active' | 'pending' | 'none';
    lastName?: string;
    dateOfBirth?: string;
    postCode?: string;
  } = {},
): Promise<RunCustomer> {
  const { customers, integration, identity } = t.app.ctx.services;
  let customerId = '';
  do customerId = `C9${String(randomInt(0, 1_000_000)).padStart(6, '0')}`;
  while (await customers.get(customerId));
  const unique = randomUUID().replace(/-/g, '').slice(0, 10);
  const letters = unique.replace(/\d/g, (d) => 'abcdefghij'[Number(d)]!);
  const customer: RunCustomer = {
    customerId,
    firstName: 'Testa',
    lastName: options.lastName ?? `Staffcase ${letters}`,
    email: `staff-test-${unique}@example.org`,
    password: 'CorrectHorseBatteryStaple9',
    mobileNumber: `07700${customerId.slice(2)}`,
    landlineNumber: null,
    dateOfBirth: options.dateOfBirth ?? '1970-06-15',
    postCode: options.postCode ?? 'TR21 0PW',
  };
  const record: CustomerRecordInput = {
    version: 1,
    title: 'Ms',
    firstName: customer.firstName,
    lastName: customer.lastName,
    dateOfBirth: customer.dateOfBirth,
    email: customer.email,
    mobileNumber: customer.mobileNumber,
    landlineNumber: null,
    address: {
      lineOne: '1 Test Row',
      lineTwo: '',
      lineThree: '',
      town: 'Hugh Town',
      county: '',
      postCode: customer.postCode,
    },
    agencyId: null,
  };
  const held = await integration.upsert('customer', customerId, record, actor);
  if (held.status !== 'created')
    throw new Error(`the customer record was not created: ${JSON.stringify(held)}`);
  await customers.demo.preferences(customerId, true);
  if (options.account === 'pending') {
    await identity.startActivation({ ...customer, email: customer.email, landlineNumber: null });
  } else if (options.account !== 'none') {
    await identity.createSeededAccount({
      customerId,
      login: customer.email,
      password: customer.password,
      firstName: customer.firstName,
      lastName: customer.lastName,
      phoneNumbers: [customer.mobileNumber],
      registeredAt: new Date(t.clock.now().getTime() - 400 * 86_400_000),
    });
  }
  return customer;
}

/** Erases the test's customers, as the insurer's erasure does (their account and data in every module). */
export async function eraseRunCustomers(t: TestContext, list: readonly RunCustomer[]): Promise<void> {
  for (const c of list) await t.app.ctx.services.integration.remove('customer', c.customerId, 2, actor);
}
