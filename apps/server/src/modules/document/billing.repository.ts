import type { Queryable } from '../../platform/db';

type BillingKind = 'statement' | 'payment_schedule' | 'direct_debit_confirmation' | 'annual_bill';

export interface BillingDocumentRow {
  accountNumber: string;
  id: string;
  name: string;
  date: string;
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
    total: string;
  }>(
    `SELECT account_number, document_id, name, document_date::text AS document_date,
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
    })),
  };
}

export interface BillingDocumentRecord {
  id: string;
  kind: BillingKind;
  name: string;
  date: string;
  policyNumber: string | null;
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
    account_number: string;
    payment_method: 'DirectDebit' | 'Annual';
    collection_day: number | null;
    bank_account_ending: string | null;
    policy_numbers: string[] | string;
  }>(
    `SELECT d.document_id, d.kind, d.name, d.document_date::text AS document_date, d.policy_number,
            a.account_number, a.payment_method, a.collection_day, a.bank_account_ending, a.policy_numbers
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

/* Demo data ------------------------------------------------------------------------------------- */

export interface DemoBillingAccount {
  accountNumber: string;
  paymentMethod: 'DirectDebit' | 'Annual';
  collectionDay: number | null;
  bankAccountEnding: string | null;
  policyNumbers: string[];
  documents: Array<{
    id: string;
    kind: BillingKind;
    name: string;
    date: string;
    policyNumber: string | null;
  }>;
}

export async function replaceDemoBilling(
  q: Queryable,
  customerId: string,
  accounts: DemoBillingAccount[],
): Promise<void> {
  await q.query('DELETE FROM billing_account WHERE customer_id = $1', [customerId]);
  for (const a of accounts) {
    await q.query(
      `INSERT INTO billing_account (account_number, customer_id, payment_method, collection_day,
                                    bank_account_ending, policy_numbers)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [a.accountNumber, customerId, a.paymentMethod, a.collectionDay, a.bankAccountEnding, a.policyNumbers],
    );
    for (const d of a.documents) {
      await q.query(
        `INSERT INTO billing_document (document_id, customer_id, account_number, kind, name, document_date,
                                       policy_number)
         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [d.id, customerId, a.accountNumber, d.kind, d.name, d.date, d.policyNumber],
      );
    }
  }
}
