-- Bills and payments (spec customer-data §2, §3 "Billing document list page"): a customer's billing
-- accounts and the documents sent for them (statements, payment schedules, direct debit confirmations,
-- annual bills). Every row carries the customer id, so each read is decided by the customer in the same
-- query.

CREATE TABLE billing_account (
  account_number text PRIMARY KEY CHECK (account_number ~ '^[A-Z0-9]{4,40}$'),
  customer_id text NOT NULL REFERENCES customer (customer_id) ON DELETE CASCADE,
  payment_method text NOT NULL CHECK (payment_method IN ('DirectDebit', 'Annual')),
  -- Direct debit only: the day of the month collected, and the last two digits of the bank account.
  collection_day integer CHECK (collection_day IS NULL OR collection_day BETWEEN 1 AND 28),
  bank_account_ending text CHECK (bank_account_ending IS NULL OR bank_account_ending ~ '^[0-9]{2}$'),
  policy_numbers text[] NOT NULL DEFAULT '{}'
);
CREATE INDEX billing_account_customer_idx ON billing_account (customer_id);

CREATE TABLE billing_document (
  document_id text PRIMARY KEY CHECK (document_id ~ '^[A-Za-z0-9_-]{1,64}$'),
  customer_id text NOT NULL REFERENCES customer (customer_id) ON DELETE CASCADE,
  account_number text NOT NULL REFERENCES billing_account (account_number) ON DELETE CASCADE,
  kind text NOT NULL
    CHECK (kind IN ('statement', 'payment_schedule', 'direct_debit_confirmation', 'annual_bill')),
  name text NOT NULL,
  document_date date NOT NULL,
  -- The policy a schedule or an annual bill is for; statements cover the whole account.
  policy_number text
);
-- Newest first, over all of a customer's accounts: the order the list pages in.
CREATE INDEX billing_document_customer_idx ON billing_document (customer_id, document_date DESC, document_id);
