import {
  isValidEmail,
  isValidIsoDateOfBirth,
  isValidPostcode,
  normaliseEmail,
  postcodeKey,
} from '@portal/contracts/fields';
import type {
  AgencyRecordInput,
  CustomerRecordInput,
  NotificationRecordInput,
} from '@portal/contracts/integration/records';
import type { Clock } from '../../platform/clock';
import type { Db, Queryable } from '../../platform/db';
import type { ModuleContext } from '../../platform/module';
import { HttpError, badRequest, notFound } from '../../platform/errors';
import type { Services } from '../../platform/services';
import { demoCustomers } from '../../db/demo-customers';
import { demoAgencies, demoPortfolio, type DemoAgency } from '../../db/demo-portfolio';
import { demoSeedActor } from '../integration/versioned';
import {
  findCustomer,
  findCustomerAddress,
  findCustomersByDobAndPostcode,
  findCustomerWithAddress,
  findOtherCustomerWithEmail,
  updateCustomerEmail,
  updateCustomerMobile,
  upsertCustomer,
  type CustomerAddress,
  type CustomerRecord,
} from './customer.repository';
import {
  assignNotification,
  deleteNotification,
  notificationExists,
  upsertNotification,
  withdrawNotification,
} from './notifications.repository';
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
  /** Whether a customer other than `customerId` has that email address, in any letter case. */
  emailTakenByOther(customerId: string, email: string): Promise<boolean>;
  /** Records the customer's mobile number (national form) in the caller's transaction; 404 for an unknown customer. */
  setMobile(customerId: string, mobileNumber: string, tx: Queryable): Promise<void>;

  /* The insurer's records, written by the integration module in its transaction. */

  /** Whether the customer is held, read in the caller's transaction. */
  held(tx: Queryable, customerId: string): Promise<boolean>;
  /**
   * Creates or replaces the customer's record (never their preferences). 400 for a date of birth not in
   * the past, 422 for an email another customer has.
   */
  upsertRecord(tx: Queryable, customerId: string, record: CustomerRecordInput): Promise<void>;
  upsertNotification(tx: Queryable, notificationId: string, record: NotificationRecordInput): Promise<void>;
  /** Removes a notification and every customer's copy; false when it was not held. */
  removeNotification(tx: Queryable, notificationId: string): Promise<boolean>;
  /** Gives the customer the notification (NEW, or as it is when they have it). 422 when either is not held. */
  assignNotification(tx: Queryable, customerId: string, notificationId: string): Promise<void>;
  /** False when the customer did not have it. */
  withdrawNotification(tx: Queryable, customerId: string, notificationId: string): Promise<boolean>;
}

/** 422: the record names one the portal does not hold, so it cannot be written yet. */
function notHeld(field: string, what: string): HttpError {
  return new HttpError(422, 'REFERENCE_NOT_HELD', `${what} is not held: load it first.`, {
    [field]: `${what} is not held`,
  });
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

    emailTakenByOther: async (customerId, email) =>
      (await findOtherCustomerWithEmail(db, customerId, normaliseEmail(email))) !== null,

    async setMobile(customerId, mobileNumber, tx) {
      if (!(await updateCustomerMobile(tx, customerId, mobileNumber, clock.now()))) {
        throw notFound('Customer not found');
      }
    },

    held: async (tx, customerId) => (await findCustomer(tx, customerId)) !== null,

    async upsertRecord(tx, customerId, record) {
      const today = clock.now().toISOString().slice(0, 10);
      if (!isValidIsoDateOfBirth(record.dateOfBirth, today)) {
        throw badRequest('The date of birth must be a real date in the past.', {
          dateOfBirth: 'Expected a real date in the past, YYYY-MM-DD',
        });
      }
      const inUse = () =>
        new HttpError(
          422,
          'EMAIL_IN_USE',
          'Another customer has that email address: one customer per address.',
          {
            email: 'Another customer has that email address',
          },
        );
      if (record.email !== null && (await findOtherCustomerWithEmail(tx, customerId, record.email)))
        throw inUse();
      try {
        await upsertCustomer(tx, customerId, record, clock.now());
      } catch (error) {
        if (isUniqueViolation(error)) throw inUse();
        throw error;
      }
    },

    upsertNotification: (tx, notificationId, record) => upsertNotification(tx, notificationId, record),
    removeNotification: (tx, notificationId) => deleteNotification(tx, notificationId),

    async assignNotification(tx, customerId, notificationId) {
      if (!(await findCustomer(tx, customerId))) throw notHeld('customerId', `Customer ${customerId}`);
      if (!(await notificationExists(tx, notificationId))) {
        throw notHeld('notificationId', `Notification ${notificationId}`);
      }
      await assignNotification(tx, customerId, notificationId, clock.now());
    },

    withdrawNotification: (tx, customerId, notificationId) =>
      withdrawNotification(tx, customerId, notificationId),
  };
}

/**
 * Loads the demo customers through the integration API's path, as the insurer's systems would (their
 * agencies first, which the customers refer to), and their first-time preferences. Idempotent: it runs
 * at every start.
 */
export async function seedCustomers(ctx: ModuleContext): Promise<void> {
  const now = ctx.clock.now();
  const version = now.toISOString();
  const { integration, customers } = ctx.services;
  for (const agency of demoAgencies)
    await integration.upsert('agency', agency.agencyId, agencyRecordOf(agency, version), demoSeedActor);
  const agencyOf = new Map(demoPortfolio(now).customers.map((c) => [c.customerId, c.agencyId]));
  for (const c of demoCustomers) {
    const record: CustomerRecordInput = {
      version,
      title: c.title,
      firstName: c.firstName,
      lastName: c.lastName,
      dateOfBirth: c.dateOfBirth,
      // A demo customer with no email on record gives one when registering: keep it.
      email: c.email ?? (await customers.get(c.customerId))?.email ?? null,
      mobileNumber: c.mobileNumber,
      landlineNumber: c.landlineNumber,
      address: {
        lineOne: c.addressLineOne,
        lineTwo: c.addressLineTwo,
        lineThree: c.addressLineThree,
        town: c.town,
        county: c.county,
        postCode: c.postCode,
      },
      agencyId: agencyOf.get(c.customerId) ?? null,
    };
    await integration.upsert('customer', c.customerId, record, demoSeedActor);
    await insertDemoPreferences(ctx.db, c.customerId, c.registered?.marketingChosen ?? false, now);
  }
}

/** A demo agency as the integration API takes it. */
function agencyRecordOf(a: DemoAgency, version: string): AgencyRecordInput {
  const { agencyId: _key, ...record } = a;
  return { ...record, version };
}
