import type { Queryable } from '../../platform/db';
import type { FileRef } from './files.repository';

export type BillingKind = 'statement' | 'payment_schedule' | 'direct_debit_confirmation' | 'annual_bill';

export interface BillingDocumentRow {
  accountNumber: string;
  id: string;
  name: string;
  date: string;
  /** Not opened by the customer yet (document_seen). */
  isNew: boolean;
}

/**
 * One page of the customer's billing documents over all their accounts, newest first, with how many there
 * are. Only the customer's own rows are read: the customer id is in the same query.
 */
export async function listBillingDocuments(
  q: Queryable,
  customerId: string,
  page: number,
  pageSize: number,
): Promise<{ rows: BillingDocumentRow[]; total: number }> {
  // One read: the page and, alongside each row, how many there are in all.
  const { rows } = await q.query<{
    account_number: string;
    document_id: string;
    name: string;
    document_date: string;
    is_new: boolean;
    total: string;
  }>(
    `SELECT account_number, document_id, name, document_date::text AS document_date,
            NOT EXISTS (SELECT 1 FROM document_seen s
                         WHERE s.customer_id = $1 AND s.document_id = billing_document.document_id) AS is_new,
            count(*) OVER ()::text AS total
       FROM billing_document WHERE customer_id = $1
      ORDER BY document_date DESC, document_id LIMIT $2 OFFSET $3`,
    [customerId, pageSize, (page - 1) * pageSize],
  );
  let total = Number(rows[0]?.total ?? 0);
  if (rows.length === 0 && page > 1) {
    // A page past the end still says how many there are.
    const count = await q.query<{ total: string }>(
      'SELECT count(*)::text AS total FROM billing_document WHERE customer_id = $1',
      [customerId],
    );
    total = Number(count.rows[0]?.total ?? 0);
  }
  return {
    total,
    rows: rows.map((r) => ({
      accountNumber: r.account_number,
      id: r.document_id,
      name: r.name,
      date: r.document_date,
      isNew: r.is_new === true,
    })),
  };
}

export interface BillingDocumentRecord {
  id: string;
  kind: BillingKind;
  name: string;
  date: string;
  policyNumber: string | null;
  /** The PDF the insurer made; null for demo data, whose PDF is drawn when asked for. */
  file: FileRef | null;
  account: {
    accountNumber: string;
    paymentMethod: 'DirectDebit' | 'Annual';
    collectionDay: number | null;
    bankAccountEnding: string | null;
    policyNumbers: string[];
  };
}

/** One of the customer's billing documents with its account; null when it is not theirs. */
export async function findBillingDocument(
  q: Queryable,
  customerId: string,
  documentId: string,
): Promise<BillingDocumentRecord | null> {
  const { rows } = await q.query<{
    document_id: string;
    kind: BillingKind;
    name: string;
    document_date: string;
    policy_number: string | null;
    file_sha256: string | null;
    file_name: string | null;
    account_number: string;
    payment_method: 'DirectDebit' | 'Annual';
    collection_day: number | null;
    bank_account_ending: string | null;
    policy_numbers: string[] | string;
  }>(
    `SELECT d.document_id, d.kind, d.name, d.document_date::text AS document_date, d.policy_number,
            d.file_sha256, d.file_name, a.account_number, a.payment_method, a.collection_day, a.bank_account_ending, a.policy_numbers
       FROM billing_document d JOIN billing_account a ON a.account_number = d.account_number
      WHERE d.customer_id = $1 AND a.customer_id = $1 AND d.document_id = $2`,
    [customerId, documentId],
  );
  const r = rows[0];
  if (!r) return null;
  return {
    id: r.document_id,
    kind: r.kind,
    name: r.name,
    date: r.document_date,
    policyNumber: r.policy_number,
    file: r.file_sha256 && r.file_name ? { sha256: r.file_sha256, fileName: r.file_name } : null,
    account: {
      accountNumber: r.account_number,
      paymentMethod: r.payment_method,
      collectionDay: r.collection_day,
      bankAccountEnding: r.bank_account_ending,
      policyNumbers: Array.isArray(r.policy_numbers) ? r.policy_numbers : parseTextArray(r.policy_numbers),
    },
  };
}

/** A PostgreSQL text[] as text ('{a,b}'), as some drivers return it. */
function parseTextArray(value: string): string[] {
  const inner = value.replace(/^\{|\}$/g, '');
  return inner === '' ? [] : inner.split(',').map((v) => v.replace(/^"|"$/g, ''));
}

/* Writes (the integration API's records, and the demo seed through them) ---------------------------- */

export interface BillingAccountRow {
  accountNumber: string;
  customerId: string;
  paymentMethod: 'DirectDebit' | 'Annual';
  collectionDay: number | null;
  bankAccountEnding: string | null;
  policyNumbers: string[];
}

/** Whose account this is, locked for the transaction; null when it is not held. */
export async function lockAccount(q: Queryable, accountNumber: string): Promise<string | null> {
  const { rows } = await q.query<{ customer_id: string }>(
    'SELECT customer_id FROM billing_account WHERE account_number = $1 FOR UPDATE',
    [accountNumber],
  );
  return rows[0]?.customer_id ?? null;
}

/** Whose account this is (no lock), or null. */
export async function accountCustomer(q: Queryable, accountNumber: string): Promise<string | null> {
  const { rows } = await q.query<{ customer_id: string }>(
    'SELECT customer_id FROM billing_account WHERE account_number = $1',
    [accountNumber],
  );
  return rows[0]?.customer_id ?? null;
}

export async function upsertAccount(q: Queryable, a: BillingAccountRow): Promise<void> {
  await q.query(
    `INSERT INTO billing_account (account_number, customer_id, payment_method, collection_day,
                                  bank_account_ending, policy_numbers)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (account_number) DO UPDATE SET payment_method = EXCLUDED.payment_method,
       collection_day = EXCLUDED.collection_day, bank_account_ending = EXCLUDED.bank_account_ending,
       policy_numbers = EXCLUDED.policy_numbers`,
    [a.accountNumber, a.customerId, a.paymentMethod, a.collectionDay, a.bankAccountEnding, a.policyNumbers],
  );
}

/** The account removed (its documents cascade); whose it was, or null when none was held. */
export async function deleteAccount(
  q: Queryable,
  accountNumber: string,
): Promise<{ customerId: string } | null> {
  const { rows } = await q.query<{ customer_id: string }>(
    'DELETE FROM billing_account WHERE account_number = $1 RETURNING customer_id',
    [accountNumber],
  );
  return rows[0] ? { customerId: rows[0].customer_id } : null;
}

/** The customer's accounts (the demo seed removes those it no longer makes). */
export async function accountNumbersOf(q: Queryable, customerId: string): Promise<string[]> {
  const { rows } = await q.query<{ account_number: string }>(
    'SELECT account_number FROM billing_account WHERE customer_id = $1',
    [customerId],
  );
  return rows.map((r) => r.account_number);
}

/** The account's documents (the demo seed removes those it no longer makes). */
export async function billingDocumentIdsOf(q: Queryable, accountNumber: string): Promise<string[]> {
  const { rows } = await q.query<{ document_id: string }>(
    'SELECT document_id FROM billing_document WHERE account_number = $1',
    [accountNumber],
  );
  return rows.map((r) => r.document_id);
}

/**
 * Writes one document of an account. Answers false, writing nothing, when that document id is held for
 * another account.
 */
export async function upsertBillingDocument(
  q: Queryable,
  customerId: string,
  accountNumber: string,
  d: {
    id: string;
    kind: BillingKind;
    name: string;
    date: string;
    policyNumber: string | null;
    file: FileRef | null;
  },
): Promise<boolean> {
  const { rowCount } = await q.query(
    `INSERT INTO billing_document (document_id, customer_id, account_number, kind, name, document_date,
                                   policy_number, file_sha256, file_name)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
     ON CONFLICT (document_id) DO UPDATE SET kind = EXCLUDED.kind, name = EXCLUDED.name,
       document_date = EXCLUDED.document_date, policy_number = EXCLUDED.policy_number,
       file_sha256 = EXCLUDED.file_sha256, file_name = EXCLUDED.file_name, customer_id = EXCLUDED.customer_id
     WHERE billing_document.account_number = EXCLUDED.account_number`,
    [
      d.id,
      customerId,
      accountNumber,
      d.kind,
      d.name,
      d.date,
      d.policyNumber,
      d.file?.sha256 ?? null,
      d.file?.fileName ?? null,
    ],
  );
  return rowCount > 0;
}

export async function deleteBillingDocument(
  q: Queryable,
  accountNumber: string,
  documentId: string,
): Promise<{ customerId: string } | null> {
  const { rows } = await q.query<{ customer_id: string }>(
    'DELETE FROM billing_document WHERE account_number = $1 AND document_id = $2 RETURNING customer_id',
    [accountNumber, documentId],
  );
  return rows[0] ? { customerId: rows[0].customer_id } : null;
}
