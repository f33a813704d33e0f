import {
  isValidEmail,
  isValidIsoDateOfBirth,
  isValidPostcode,
  normaliseEmail,
  postcodeKey,
} from '@portal/contracts/fields';
import type { Clock } from '../../platform/clock';
import type { Db, Queryable } from '../../platform/db';
import { HttpError, badRequest, notFound } from '../../platform/errors';
import type { Services } from '../../platform/services';
import { demoCustomers } from '../../db/demo-customers';
import {
  findCustomer,
  findCustomerAddress,
  findCustomersByDobAndPostcode,
  findCustomerWithAddress,
  updateCustomerEmail,
  upsertDemoCustomer,
  type CustomerAddress,
  type CustomerRecord,
} from './customer.repository';
import { insertDemoPreferences } from './preferences.repository';

/** Customer records, for the modules that identify, register and serve customers. */
export interface CustomersService {
  /** Customers with that date of birth (YYYY-MM-DD) and postcode (compared by the contract's `postcodeKey`). */
  findByDobAndPostcode(dateOfBirth: string, postCode: string): Promise<CustomerRecord[]>;
  /** The holder of that policy (number compared upper case, trimmed), or null. */
  findByPolicyNumber(policyNumber: string): Promise<CustomerRecord | null>;
  get(customerId: string): Promise<CustomerRecord | null>;
  /** The customer's postal address on record, or null for an unknown customer. */
  address(customerId: string): Promise<CustomerAddress | null>;
  /** The customer and their postal address in one read (for a letter's addressee), or null. */
  withAddress(customerId: string): Promise<{ customer: CustomerRecord; address: CustomerAddress } | null>;
  /**
   * Records the customer's email. Pass the caller's transaction so it commits with the caller's change.
   * Throws HttpError 400 for an unusable address, 404 for an unknown customer and 409 (EMAIL_IN_USE) when
   * another customer already has that address in any letter case.
   */
  setEmail(customerId: string, email: string, tx?: Queryable): Promise<void>;
}

function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505';
}

export function createCustomersService(db: Db, clock: Clock, services: Services): CustomersService {
  return {
    async findByDobAndPostcode(dateOfBirth, postCode) {
      const today = clock.now().toISOString().slice(0, 10);
      if (!isValidIsoDateOfBirth(dateOfBirth, today) || !isValidPostcode(postCode)) return [];
      return findCustomersByDobAndPostcode(db, dateOfBirth, postcodeKey(postCode));
    },

    async findByPolicyNumber(policyNumber) {
      // Through the policy module's service: modules do not read each other's tables.
      const policy = await services.policies.findByNumber(policyNumber);
      return policy ? findCustomer(db, policy.customerId) : null;
    },

    get: (customerId) => findCustomer(db, customerId),
    address: (customerId) => findCustomerAddress(db, customerId),
    withAddress: (customerId) => findCustomerWithAddress(db, customerId),

    async setEmail(customerId, email, tx) {
      const address = normaliseEmail(email);
      if (!isValidEmail(address)) {
        throw badRequest('Enter a valid email address.', { email: 'Enter a valid email address' });
      }
      let updated: boolean;
      try {
        updated = await updateCustomerEmail(tx ?? db, customerId, address, clock.now());
      } catch (error) {
        if (isUniqueViolation(error)) {
          throw new HttpError(409, 'EMAIL_IN_USE', 'That email address is already in use.', {
            email: 'That email address is already in use',
          });
        }
        throw error;
      }
      if (!updated) throw notFound('Customer not found');
    },
  };
}

/** Loads the demo customers and their first-time preferences. Idempotent: it runs at every start. */
export async function seedCustomers(q: Queryable, clock: Clock): Promise<void> {
  const now = clock.now();
  for (const customer of demoCustomers) {
    await upsertDemoCustomer(q, customer, now);
    await insertDemoPreferences(q, customer.customerId, customer.registered?.marketingChosen ?? false, now);
  }
}
