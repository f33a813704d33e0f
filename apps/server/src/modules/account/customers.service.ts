import type { Clock } from '../../platform/clock';
import type { Db, Queryable } from '../../platform/db';
import { HttpError, badRequest, notFound } from '../../platform/errors';
import type { Services } from '../../platform/services';
import { demoCustomers } from '../../db/demo-customers';
import {
  findCustomer,
  findCustomerAddress,
  findCustomersByDobAndPostcode,
  updateCustomerEmail,
  upsertDemoCustomer,
  type CustomerAddress,
  type CustomerRecord,
} from './customer.repository';
import { insertDemoPreferences } from './preferences.repository';

/** Customer records, for the modules that identify, register and serve customers. */
export interface CustomersService {
  /** Customers with that date of birth (YYYY-MM-DD) and postcode (compared upper case, spaces removed). */
  findByDobAndPostcode(dateOfBirth: string, postCode: string): Promise<CustomerRecord[]>;
  /** The holder of that policy (number compared upper case, trimmed), or null. */
  findByPolicyNumber(policyNumber: string): Promise<CustomerRecord | null>;
  get(customerId: string): Promise<CustomerRecord | null>;
  /** The customer's postal address on record, or null for an unknown customer. */
  address(customerId: string): Promise<CustomerAddress | null>;
  /**
   * Records the customer's email. Pass the caller's transaction so it commits with the caller's change.
   * Throws HttpError 400 for an unusable address, 404 for an unknown customer and 409 (EMAIL_IN_USE) when
   * another customer already has that address in any letter case.
   */
  setEmail(customerId: string, email: string, tx?: Queryable): Promise<void>;
}

/** Upper case, whitespace removed: how postcodes are compared. */
function normalisePostCode(postCode: string): string {
  return postCode.replace(/\s/g, '').toUpperCase();
}

/** A real calendar date written YYYY-MM-DD. */
function isIsoDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505';
}

export function createCustomersService(db: Db, clock: Clock, services: Services): CustomersService {
  return {
    async findByDobAndPostcode(dateOfBirth, postCode) {
      const normalised = normalisePostCode(postCode);
      if (!isIsoDate(dateOfBirth) || normalised === '' || normalised.length > 10) return [];
      return findCustomersByDobAndPostcode(db, dateOfBirth, normalised);
    },

    async findByPolicyNumber(policyNumber) {
      // Through the policy module's service: modules do not read each other's tables.
      const policy = await services.policies.findByNumber(policyNumber);
      return policy ? findCustomer(db, policy.customerId) : null;
    },

    get: (customerId) => findCustomer(db, customerId),
    address: (customerId) => findCustomerAddress(db, customerId),

    async setEmail(customerId, email, tx) {
      const address = email.trim();
      if (address.length > 254 || !emailPattern.test(address)) {
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
