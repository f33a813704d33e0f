-- Platform tables shared by every module.

-- Audit trail: append-only. A state change and its audit row commit in the same transaction.
CREATE TABLE audit_event (
  id bigserial PRIMARY KEY,
  occurred_at timestamptz NOT NULL DEFAULT now(),
  source text NOT NULL CHECK (source IN ('server', 'client')),
  event_id text NOT NULL,
  customer_id text,
  on_behalf_of text,
  session_id text,
  correlation_id text,
  is_success boolean,
  failure_reason text,
  details jsonb NOT NULL DEFAULT '{}'::jsonb
);
CREATE INDEX audit_event_customer_idx ON audit_event (customer_id, occurred_at);

CREATE FUNCTION audit_event_append_only() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION 'audit_event is append-only';
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER audit_event_no_update BEFORE UPDATE OR DELETE ON audit_event
  FOR EACH ROW EXECUTE FUNCTION audit_event_append_only();
CREATE TRIGGER audit_event_no_truncate BEFORE TRUNCATE ON audit_event
  FOR EACH STATEMENT EXECUTE FUNCTION audit_event_append_only();
