import {
  isValidEmail,
  isValidIsoDateOfBirth,
  isValidPostcode,
  normaliseEmail,
  postcodeKey,
} from '@portal/contracts/fields';
import type { CustomerRecordInput, NotificationRecordInput } from '@portal/contracts/integration/records';
import type { Clock } from '../../platform/clock';
import type { Db, Queryable } from '../../platform/db';
import { HttpError, badRequest, notFound } from '../../platform/errors';
import { isMobileNumber, type IdentityService } from '../identity';
import {
  findCustomer,
  findCustomerAddress,
  findCustomersByDobAndPostcode,
  findCustomersForStaff,
  findCustomerWithAddress,
  findEmailOwners,
  findHeldCustomerIds,
  findOtherCustomerWithEmail,
  updateCustomerEmail,
  updateCustomerMobile,
  upsertCustomer,
  upsertCustomers,
  type CustomerAddress,
  type CustomerForStaff,
  type CustomerRecord,
} from './customer.repository';
import {
  assignNotification,
  deleteNotification,
  notificationExists,
  upsertNotification,
  resetDemoNotifications,
  withdrawNotification,
} from './notifications.repository';
import { insertDemoPreferences, readPreferences } from './preferences.repository';

/** Customer records, for the modules that identify, register and serve customers. */
export interface CustomersService {
  /** Customers with that date of birth (YYYY-MM-DD) and postcode (compared by the contract's `postcodeKey`). */
  findByDobAndPostcode(dateOfBirth: string, postCode: string): Promise<CustomerRecord[]>;
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

  /* The contact centre (issue 41). */

  /**
   * Customers by id, by email (any letter case), or by surname (any letter case, spaces ignored) with
   * date of birth and postcode, all three matching; at most `limit`, by customer id, with their titles.
   * A value that cannot match (not a date of birth, not a postcode) finds none.
   */
  findForStaff(
    lookup:
      | { by: 'ids'; customerIds: readonly string[] }
      | { by: 'email'; email: string }
      | { by: 'nameAndBirth'; surname: string; dateOfBirth: string; postcode: string },
    limit: number,
  ): Promise<CustomerForStaff[]>;
  /** The customer's paperless and marketing choices (never asked: null), as their preferences page holds them. */
  choicesOf(customerId: string): Promise<{
    paperless: boolean;
    marketing: Record<'email' | 'phone' | 'post' | 'online', boolean | null>;
  }>;

  /* The insurer's records, written by the integration module in its transaction. */

  /** Whether the customer is held, read in the caller's transaction. */
  held(tx: Queryable, customerId: string): Promise<boolean>;
  /**
   * How a customer with an online account (an activated sign-in) is told of a new document or message
   * (issue 40), read in the caller's transaction: `email` when paperless or they chose email and one is on
   * record, `mobile` when they chose texts and a mobile is on record; null when neither (or no account).
   */
  documentNoticeRecipient(
    tx: Queryable,
    customerId: string,
  ): Promise<{ firstName: string; email: string | null; mobile: string | null } | null>;
  /**
   * Creates or replaces the customer's record (never their preferences). 400 for a date of birth not in
   * the past, 422 for an email another customer has.
   */
  upsertRecord(tx: Queryable, customerId: string, record: CustomerRecordInput): Promise<void>;
  /** Which of the customers are held, read in the caller's transaction: one statement for a bulk load's batch. */
  heldIds(tx: Queryable, customerIds: readonly string[]): Promise<Set<string>>;
  /**
   * upsertRecord for many customers (each at most once) in a few statements, as if written one after the
   * other in the order given: answers each one's refusal (the same 400 or 422 upsertRecord throws), or
   * undefined for one written. Throws on a database error (a unique violation the checks did not
   * foresee): the caller rolls back to before the call.
   */
  upsertRecords(
    tx: Queryable,
    items: ReadonlyArray<{ customerId: string; record: CustomerRecordInput }>,
  ): Promise<Array<HttpError | undefined>>;
  upsertNotification(tx: Queryable, notificationId: string, record: NotificationRecordInput): Promise<void>;
  /** Removes a notification and every customer's copy; false when it was not held. */
  removeNotification(tx: Queryable, notificationId: string): Promise<boolean>;
  /** Gives the customer the notification (NEW, or as it is when they have it). 422 when either is not held. */
  assignNotification(tx: Queryable, customerId: string, notificationId: string): Promise<void>;
  /** False when the customer did not have it. */
  withdrawNotification(tx: Queryable, customerId: string, notificationId: string): Promise<boolean>;

  /** For the demo data only (db/demo/): what a demo customer has chosen, as the demo's story has it. */
  demo: {
    /** First-time preferences (marketing already chosen, or still to choose at the first sign-in). */
    preferences(customerId: string, marketingChosen: boolean): Promise<void>;
    /** The customer's notifications NEW again (a demo shows its modals afresh each day). */
    resetNotifications(customerId: string): Promise<void>;
  };
}

const dateOfBirthNotInPast = () =>
  badRequest('The date of birth must be a real date in the past.', {
    dateOfBirth: 'Expected a real date in the past, YYYY-MM-DD',
  });

const emailInUse = () =>
  new HttpError(422, 'EMAIL_IN_USE', 'Another customer has that email address: one customer per address.', {
    email: 'Another customer has that email address',
  });

/** 422: the record names one the portal does not hold, so it cannot be written yet. */
function notHeld(field: string, what: string): HttpError {
  return new HttpError(422, 'REFERENCE_NOT_HELD', `${what} is not held: load it first.`, {
    [field]: `${what} is not held`,
  });
}

function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505';
}

export function createCustomersService(
  db: Db,
  clock: Clock,
  /** The identity module's service (whether a customer has an online account), read when called. */
  identity?: () => IdentityService,
): CustomersService {
  return {
    async findByDobAndPostcode(dateOfBirth, postCode) {
      const today = clock.now().toISOString().slice(0, 10);
      if (!isValidIsoDateOfBirth(dateOfBirth, today) || !isValidPostcode(postCode)) return [];
      return findCustomersByDobAndPostcode(db, dateOfBirth, postcodeKey(postCode));
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

    async findForStaff(lookup, limit) {
      if (lookup.by === 'ids') {
        const customerIds = [...new Set(lookup.customerIds)];
        return customerIds.length === 0 ? [] : findCustomersForStaff(db, { by: 'ids', customerIds }, limit);
      }
      if (lookup.by === 'email') {
        const email = normaliseEmail(lookup.email);
        return isValidEmail(email) ? findCustomersForStaff(db, { by: 'email', email }, limit) : [];
      }
      const today = clock.now().toISOString().slice(0, 10);
      const surnameKey = lookup.surname.replace(/\s/g, '').toUpperCase();
      if (
        !surnameKey ||
        !isValidIsoDateOfBirth(lookup.dateOfBirth, today) ||
        !isValidPostcode(lookup.postcode)
      )
        return [];
      return findCustomersForStaff(
        db,
        {
          by: 'nameAndBirth',
          surnameKey,
          dateOfBirth: lookup.dateOfBirth,
          postCodeNormalised: postcodeKey(lookup.postcode),
        },
        limit,
      );
    },

    async choicesOf(customerId) {
      const { paperless, marketing } = await readPreferences(db, customerId);
      return { paperless, marketing };
    },

    held: async (tx, customerId) => (await findCustomer(tx, customerId)) !== null,

    async documentNoticeRecipient(tx, customerId) {
      const customer = await findCustomer(tx, customerId);
      if (!customer || !identity) return null;
      const preferences = await readPreferences(tx, customerId);
      const email = preferences.paperless || preferences.notices.email ? customer.email : null;
      const mobile =
        preferences.notices.text && customer.mobileNumber !== null && isMobileNumber(customer.mobileNumber)
          ? customer.mobileNumber
          : null;
      if (email === null && mobile === null) return null;
      const user = await identity().getUserByCustomerId(customerId, tx);
      if (user?.status !== 'ACTIVE') return null;
      return { firstName: customer.firstName, email, mobile };
    },

    async upsertRecord(tx, customerId, record) {
      const today = clock.now().toISOString().slice(0, 10);
      if (!isValidIsoDateOfBirth(record.dateOfBirth, today)) throw dateOfBirthNotInPast();
      if (record.email !== null && (await findOtherCustomerWithEmail(tx, customerId, record.email)))
        throw emailInUse();
      try {
        await upsertCustomer(tx, customerId, record, clock.now());
      } catch (error) {
        if (isUniqueViolation(error)) throw emailInUse();
        throw error;
      }
    },

    heldIds: (tx, customerIds) => findHeldCustomerIds(tx, customerIds),

    async upsertRecords(tx, items) {
      const today = clock.now().toISOString().slice(0, 10);
      // Who holds each address now, and each customer's own address: then each record in turn takes its
      // address (refused when another customer has it) and frees its old one, as one call after another.
      const owners = new Map<string, string>();
      const ownEmail = new Map<string, string>();
      const emails = items.flatMap((i) => (i.record.email === null ? [] : [i.record.email.toLowerCase()]));
      for (const row of await findEmailOwners(
        tx,
        items.map((i) => i.customerId),
        emails,
      )) {
        owners.set(row.email, row.customerId);
        ownEmail.set(row.customerId, row.email);
      }
      const refusals = items.map(({ customerId, record }) => {
        if (!isValidIsoDateOfBirth(record.dateOfBirth, today)) return dateOfBirthNotInPast();
        const email = record.email?.toLowerCase() ?? null;
        const owner = email === null ? undefined : owners.get(email);
        if (owner !== undefined && owner !== customerId) return emailInUse();
        const old = ownEmail.get(customerId);
        if (old !== undefined && owners.get(old) === customerId) owners.delete(old);
        if (email === null) ownEmail.delete(customerId);
        else {
          owners.set(email, customerId);
          ownEmail.set(customerId, email);
        }
        return undefined;
      });
      await upsertCustomers(
        tx,
        items.filter((_, i) => refusals[i] === undefined),
        clock.now(),
      );
      return refusals;
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

    demo: {
      preferences: (customerId, marketingChosen) =>
        insertDemoPreferences(db, customerId, marketingChosen, clock.now()),
      resetNotifications: (customerId) => resetDemoNotifications(db, customerId, clock.now()),
    },
  };
}
