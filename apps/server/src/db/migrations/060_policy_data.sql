-- The policy data area (spec customer-data §3): what a policy carries beyond its record, the agencies
-- that look after customers and policies, quotes with their documents, policy document packs, and the
-- welcome and splash notifications. Every table that holds a customer's data carries the customer id,
-- so each read is decided by the customer in the same query.

-- Lines of business, risks, covers, valuables, bicycles, holders and flags as the policy system returns
-- them; validated against the contract on every answer.
ALTER TABLE policy
  ADD COLUMN api_product_type text NOT NULL DEFAULT 'home',
  ADD COLUMN policy_type text NOT NULL DEFAULT 'Home Insurance',
  ADD COLUMN premium_visible boolean NOT NULL DEFAULT true,
  ADD COLUMN is_migration_renewal boolean NOT NULL DEFAULT false,
  ADD COLUMN allow_mta boolean NOT NULL DEFAULT true,
  ADD COLUMN online_view_renewal boolean NOT NULL DEFAULT false,
  ADD COLUMN policy_holders jsonb NOT NULL DEFAULT '[]'::jsonb CHECK (jsonb_typeof(policy_holders) = 'array'),
  ADD COLUMN lines_of_business jsonb NOT NULL DEFAULT '[]'::jsonb
    CHECK (jsonb_typeof(lines_of_business) = 'array'),
  ADD COLUMN agency_id text;

CREATE TABLE agency (
  agency_id text PRIMARY KEY,
  name text NOT NULL,
  url text,
  telephone_number text NOT NULL,
  address text NOT NULL,
  latitude double precision NOT NULL CHECK (latitude BETWEEN -90 AND 90),
  longitude double precision NOT NULL CHECK (longitude BETWEEN -180 AND 180),
  -- The insurer's own direct line has opening hours; agencies do not.
  is_mutual_direct boolean NOT NULL DEFAULT false,
  telephones_open text CHECK (telephones_open IS NULL OR telephones_open ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
  telephones_close text CHECK (telephones_close IS NULL OR telephones_close ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$')
);
CREATE UNIQUE INDEX agency_one_mutual_direct ON agency (is_mutual_direct) WHERE is_mutual_direct;

-- A customer's own agency (none: the customer deals with the insurer directly).
CREATE TABLE customer_agency (
  customer_id text PRIMARY KEY REFERENCES customer (customer_id) ON DELETE CASCADE,
  agency_id text NOT NULL REFERENCES agency (agency_id)
);

CREATE TABLE quote (
  quote_number text PRIMARY KEY CHECK (quote_number ~ '^[0-9]{3}(X[0-9]{7}|[QP][0-9]{8})$'),
  customer_id text NOT NULL REFERENCES customer (customer_id) ON DELETE CASCADE,
  product_type text NOT NULL,
  product_name text NOT NULL,
  start_date date NOT NULL,
  premium numeric(12, 2) NOT NULL CHECK (premium >= 0),
  online_quote_and_buy boolean NOT NULL DEFAULT false
);
CREATE INDEX quote_customer_idx ON quote (customer_id);

-- Policy documents come in packs (new business, renewal, a mid-term change); quote documents belong to
-- their quote. `kind` names what the PDF holds.
CREATE TABLE document_pack (
  pack_id text PRIMARY KEY,
  customer_id text NOT NULL REFERENCES customer (customer_id) ON DELETE CASCADE,
  policy_number text NOT NULL REFERENCES policy (policy_number) ON DELETE CASCADE,
  title text NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX document_pack_policy_idx ON document_pack (customer_id, policy_number, created_at DESC);

CREATE TABLE document (
  document_id text PRIMARY KEY CHECK (document_id ~ '^[A-Za-z0-9_-]{1,64}$'),
  customer_id text NOT NULL REFERENCES customer (customer_id) ON DELETE CASCADE,
  pack_id text REFERENCES document_pack (pack_id) ON DELETE CASCADE,
  quote_number text REFERENCES quote (quote_number) ON DELETE CASCADE,
  kind text NOT NULL
    CHECK (kind IN ('schedule', 'certificate', 'statement_of_fact', 'policy_wording', 'insert', 'quote_summary')),
  name text NOT NULL,
  document_date date NOT NULL,
  position integer NOT NULL DEFAULT 0,
  CHECK ((pack_id IS NULL) <> (quote_number IS NULL))
);
CREATE INDEX document_pack_idx ON document (pack_id, position);
CREATE INDEX document_quote_idx ON document (quote_number, position);

-- A notification campaign (what the modal says comes from content), and one row per customer it is for.
CREATE TABLE notification (
  notification_id text PRIMARY KEY CHECK (notification_id ~ '^[A-Za-z0-9_-]{1,64}$'),
  type text NOT NULL CHECK (type IN ('WELCOME', 'SPLASH')),
  -- A splash modal shows from starts_at (inclusive) to ends_at (exclusive); NULL is open-ended.
  starts_at timestamptz,
  ends_at timestamptz
);

CREATE TABLE customer_notification (
  id text PRIMARY KEY CHECK (id ~ '^[A-Za-z0-9_-]{1,64}$'),
  customer_id text NOT NULL REFERENCES customer (customer_id) ON DELETE CASCADE,
  notification_id text NOT NULL REFERENCES notification (notification_id) ON DELETE CASCADE,
  status text NOT NULL DEFAULT 'NEW' CHECK (status IN ('NEW', 'SHOWN', 'CLOSED')),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (customer_id, notification_id)
);
