-- The integration API's bookkeeping (docs/integration.md, decision 019): for every record the insurer's
-- systems load, keyed by the source's own id, the version held and a hash of its content, so an older
-- update never overwrites a newer one and a repeat of the same write changes nothing. A removal stays as
-- a tombstone (removed = true) with its version, so a late, older upsert cannot bring the record back.
-- The records themselves live in their modules' tables; this table holds no personal data.
CREATE TABLE integration_record (
  record_type text NOT NULL,
  record_key text NOT NULL,
  -- The version as sent (a number or an RFC 3339 instant), and the number versions are compared by.
  version jsonb NOT NULL,
  version_order numeric NOT NULL,
  -- SHA-256 of the record's canonical JSON; null for a removal.
  content_sha256 text,
  removed boolean NOT NULL DEFAULT false,
  -- The customer the record belongs to (an insurer's id, not personal data), for erasure.
  customer_id text,
  client_id text NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (record_type, record_key)
);
CREATE INDEX integration_record_customer_idx ON integration_record (customer_id) WHERE customer_id IS NOT NULL;
