-- Housekeeping (platform/housekeeping.ts) deletes the audit trail after AUDIT_RETENTION_DAYS (seven years
-- by default). The trail stays append-only otherwise: a DELETE is let through only inside a transaction
-- that has set portal.audit_retain_after (SET LOCAL or set_config(..., true)) to the retention cutoff, and
-- only of rows older than it. UPDATE and TRUNCATE are refused as before.
CREATE OR REPLACE FUNCTION audit_event_append_only() RETURNS trigger AS $$
DECLARE
  retain_after text := current_setting('portal.audit_retain_after', true);
BEGIN
  IF TG_OP = 'DELETE' AND TG_LEVEL = 'ROW' AND coalesce(retain_after, '') <> ''
     AND OLD.occurred_at < retain_after::timestamptz THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'audit_event is append-only';
END;
$$ LANGUAGE plpgsql;

-- What housekeeping looks for: audit rows past retention, messages sent more than 30 days ago.
CREATE INDEX IF NOT EXISTS audit_event_occurred_idx ON audit_event (occurred_at);
CREATE INDEX IF NOT EXISTS message_queue_sent_idx ON message_queue (sent_at) WHERE status = 'sent';
