import type { Queryable } from '../../platform/db';
import type { CustomerRecordInput } from '@portal/contracts/integration/records';

/** A customer as other modules see it. dateOfBirth is YYYY-MM-DD. */
export interface CustomerRecord {
  customerId: string;
  firstName: string;
  lastName: string;
  dateOfBirth: string;
  email: string | null;
  mobileNumber: string | null;
  landlineNumber: string | null;
  postCode: string;
}

/** The postal address on record, for correspondence. */
export interface CustomerAddress {
  addressLineOne: string;
  addressLineTwo: string;
  addressLineThree: string;
  town: string;
  county: string;
  postCode: string;
}

interface CustomerRow {
  customer_id: string;
  first_name: string;
  last_name: string;
  date_of_birth: string;
  email: string | null;
  mobile_number: string | null;
  landline_number: string | null;
  post_code: string;
}

// date_of_birth as text: pg would make a local-midnight Date of it, which shifts a day west of UTC.
const columns = `customer_id, first_name, last_name, date_of_birth::text AS date_of_birth, email,
  mobile_number, landline_number, post_code`;

function toRecord(row: CustomerRow): CustomerRecord {
  return {
    customerId: row.customer_id,
    firstName: row.first_name,
    lastName: row.last_name,
    dateOfBirth: row.date_of_birth,
    email: row.email,
    mobileNumber: row.mobile_number,
    landlineNumber: row.landline_number,
    postCode: row.post_code,
  };
}

export async function findCustomer(q: Queryable, customerId: string): Promise<CustomerRecord | null> {
  const { rows } = await q.query<CustomerRow>(`SELECT ${columns} FROM customer WHERE customer_id = $1`, [
    customerId,
  ]);
  return rows[0] ? toRecord(rows[0]) : null;
}

/** postCodeNormalised: upper case, no whitespace (the generated column holds the same for each row). */
export async function findCustomersByDobAndPostcode(
  q: Queryable,
  dateOfBirth: string,
  postCodeNormalised: string,
): Promise<CustomerRecord[]> {
  const { rows } = await q.query<CustomerRow>(
    `SELECT ${columns} FROM customer
     WHERE date_of_birth = $1::date AND post_code_normalised = $2
     ORDER BY customer_id`,
    [dateOfBirth, postCodeNormalised],
  );
  return rows.map(toRecord);
}

/** A customer as the contact centre finds them: the record and the title it is held with. */
export type CustomerForStaff = CustomerRecord & { title: string };

/** What the contact centre finds customers by (issue 41 point 3); the values normalised by the caller. */
export type StaffLookup =
  | { by: 'ids'; customerIds: readonly string[] }
  | { by: 'email'; email: string }
  | { by: 'nameAndBirth'; surnameKey: string; dateOfBirth: string; postCodeNormalised: string };

/**
 * Customers by ids, by email (any letter case), or by surname (upper case, no whitespace, as
 * `surnameKey`) with date of birth and postcode (as the generated column holds it): all three must
 * match. At most `limit`, by customer id.
 */
export async function findCustomersForStaff(
  q: Queryable,
  lookup: StaffLookup,
  limit: number,
): Promise<CustomerForStaff[]> {
  const where =
    lookup.by === 'ids'
      ? { sql: 'customer_id = ANY($2::text[])', params: [[...lookup.customerIds]] }
      : lookup.by === 'email'
        ? { sql: 'lower(email) = lower($2)', params: [lookup.email] }
        : {
            sql: `date_of_birth = $2::date AND post_code_normalised = $3
              AND upper(regexp_replace(last_name, '\\s', '', 'g')) = $4`,
            params: [lookup.dateOfBirth, lookup.postCodeNormalised, lookup.surnameKey],
          };
  const { rows } = await q.query<CustomerRow & { title: string }>(
    `SELECT ${columns}, title FROM customer WHERE ${where.sql} ORDER BY customer_id LIMIT $1`,
    [limit, ...where.params],
  );
  return rows.map((row) => ({ ...toRecord(row), title: row.title }));
}

interface AddressRow {
  address_line_1: string;
  address_line_2: string;
  address_line_3: string;
  town: string;
  county: string;
  post_code: string;
}

const addressColumns = 'address_line_1, address_line_2, address_line_3, town, county';

function toAddress(row: AddressRow): CustomerAddress {
  return {
    addressLineOne: row.address_line_1,
    addressLineTwo: row.address_line_2,
    addressLineThree: row.address_line_3,
    town: row.town,
    county: row.county,
    postCode: row.post_code,
  };
}

export async function findCustomerAddress(q: Queryable, customerId: string): Promise<CustomerAddress | null> {
  const { rows } = await q.query<AddressRow>(
    `SELECT ${addressColumns}, post_code FROM customer WHERE customer_id = $1`,
    [customerId],
  );
  return rows[0] ? toAddress(rows[0]) : null;
}

/** The customer and their postal address in one read, or null for an unknown customer. */
export async function findCustomerWithAddress(
  q: Queryable,
  customerId: string,
): Promise<{ customer: CustomerRecord; address: CustomerAddress } | null> {
  const { rows } = await q.query<CustomerRow & AddressRow>(
    `SELECT ${columns}, ${addressColumns} FROM customer WHERE customer_id = $1`,
    [customerId],
  );
  const row = rows[0];
  return row ? { customer: toRecord(row), address: toAddress(row) } : null;
}

/** Returns false when no such customer exists. A duplicate address raises the database's unique violation. */
export async function updateCustomerEmail(
  q: Queryable,
  customerId: string,
  email: string,
  now: Date,
): Promise<boolean> {
  const result = await q.query(`UPDATE customer SET email = $2, updated_at = $3 WHERE customer_id = $1`, [
    customerId,
    email,
    now,
  ]);
  return result.rowCount > 0;
}

/** Sets the customer's mobile number (national form); false when no such customer exists. */
export async function updateCustomerMobile(
  q: Queryable,
  customerId: string,
  mobileNumber: string,
  now: Date,
): Promise<boolean> {
  const result = await q.query(
    `UPDATE customer SET mobile_number = $2, updated_at = $3 WHERE customer_id = $1`,
    [customerId, mobileNumber, now],
  );
  return result.rowCount > 0;
}

/** The customer with that email address in any letter case, other than `customerId`, or null. */
export async function findOtherCustomerWithEmail(
  q: Queryable,
  customerId: string,
  email: string,
): Promise<string | null> {
  const { rows } = await q.query<{ customer_id: string }>(
    'SELECT customer_id FROM customer WHERE lower(email) = lower($1) AND customer_id <> $2',
    [email, customerId],
  );
  return rows[0]?.customer_id ?? null;
}

/** A customer record written again: every field from the new version (the one-row and the set upsert). */
const CUSTOMER_UPSERT_CONFLICT = `ON CONFLICT (customer_id) DO UPDATE SET
       title = EXCLUDED.title, first_name = EXCLUDED.first_name, last_name = EXCLUDED.last_name,
       date_of_birth = EXCLUDED.date_of_birth, email = EXCLUDED.email, mobile_number = EXCLUDED.mobile_number,
       landline_number = EXCLUDED.landline_number, address_line_1 = EXCLUDED.address_line_1,
       address_line_2 = EXCLUDED.address_line_2, address_line_3 = EXCLUDED.address_line_3,
       town = EXCLUDED.town, county = EXCLUDED.county, post_code = EXCLUDED.post_code,
       updated_at = EXCLUDED.updated_at`;

/**
 * Inserts or replaces one customer's record as the insurer holds it (the integration API). The portal's
 * own state of the customer (preferences, sign-in) lives elsewhere and is not touched.
 */
export async function upsertCustomer(
  q: Queryable,
  customerId: string,
  c: CustomerRecordInput,
  now: Date,
): Promise<void> {
  await q.query(
    `INSERT INTO customer (customer_id, title, first_name, last_name, date_of_birth, email, mobile_number,
       landline_number, address_line_1, address_line_2, address_line_3, town, county, post_code,
       created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5::date, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $15)
     ${CUSTOMER_UPSERT_CONFLICT}`,
    [
      customerId,
      c.title,
      c.firstName,
      c.lastName,
      c.dateOfBirth,
      c.email,
      c.mobileNumber,
      c.landlineNumber,
      c.address.lineOne,
      c.address.lineTwo,
      c.address.lineThree,
      c.address.town,
      c.address.county,
      c.address.postCode,
      now,
    ],
  );
}

/** Which of the customers are held. */
export async function findHeldCustomerIds(
  q: Queryable,
  customerIds: readonly string[],
): Promise<Set<string>> {
  if (customerIds.length === 0) return new Set();
  const { rows } = await q.query<{ customer_id: string }>(
    'SELECT customer_id FROM customer WHERE customer_id = ANY($1::text[])',
    [[...new Set(customerIds)]],
  );
  return new Set(rows.map((r) => r.customer_id));
}

/** The email addresses (in lower case) of the customers, and the customers holding the addresses. */
export async function findEmailOwners(
  q: Queryable,
  customerIds: readonly string[],
  emails: readonly string[],
): Promise<Array<{ customerId: string; email: string }>> {
  const { rows } = await q.query<{ customer_id: string; email: string }>(
    // A probe of the key and of the unique index on lower(email) per value. (`lower(email) = ANY($2)`
    // planned once for any array, as a named statement is, scanned every customer and compared each with
    // every address.)
    `SELECT c.customer_id, lower(c.email) AS email
       FROM unnest($1::text[]) AS k (customer_id) JOIN customer c ON c.customer_id = k.customer_id
      WHERE c.email IS NOT NULL
     UNION
     SELECT c.customer_id, lower(c.email) AS email
       FROM unnest($2::text[]) AS e (email) JOIN customer c ON lower(c.email) = e.email
      WHERE c.email IS NOT NULL`,
    [[...new Set(customerIds)], [...new Set(emails)]],
  );
  return rows.map((r) => ({ customerId: r.customer_id, email: r.email }));
}

/** upsertCustomer for many customers (each at most once) in one statement. */
export async function upsertCustomers(
  q: Queryable,
  items: ReadonlyArray<{ customerId: string; record: CustomerRecordInput }>,
  now: Date,
): Promise<void> {
  if (items.length === 0) return;
  const column = (f: (c: CustomerRecordInput) => string | null) => items.map((i) => f(i.record));
  await q.query(
    `INSERT INTO customer (customer_id, title, first_name, last_name, date_of_birth, email, mobile_number,
       landline_number, address_line_1, address_line_2, address_line_3, town, county, post_code,
       created_at, updated_at)
     SELECT customer_id, title, first_name, last_name, date_of_birth, email, mobile_number, landline_number,
            address_line_1, address_line_2, address_line_3, town, county, post_code, $15, $15
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::date[], $6::text[], $7::text[],
                   $8::text[], $9::text[], $10::text[], $11::text[], $12::text[], $13::text[], $14::text[])
         AS r (customer_id, title, first_name, last_name, date_of_birth, email, mobile_number, landline_number,
               address_line_1, address_line_2, address_line_3, town, county, post_code)
     ${CUSTOMER_UPSERT_CONFLICT}`,
    [
      items.map((i) => i.customerId),
      column((c) => c.title),
      column((c) => c.firstName),
      column((c) => c.lastName),
      column((c) => c.dateOfBirth),
      column((c) => c.email),
      column((c) => c.mobileNumber),
      column((c) => c.landlineNumber),
      column((c) => c.address.lineOne),
      column((c) => c.address.lineTwo),
      column((c) => c.address.lineThree),
      column((c) => c.address.town),
      column((c) => c.address.county),
      column((c) => c.address.postCode),
      now,
    ],
  );
}
