-- "Your account activity" (docs/decisions/027): a customer's own server-written audit rows, newest first,
-- keyset-paged on (occurred_at, id). The index holds only what that list reads from (server rows of a
-- customer), so the SPA's client rows (most of a busy customer's trail) are never walked; the event ids
-- shown are filtered while the index is read, which keeps new event ids free of a new migration.
CREATE INDEX IF NOT EXISTS audit_event_activity_idx
  ON audit_event (customer_id, occurred_at DESC, id DESC)
  WHERE source = 'server' AND customer_id IS NOT NULL;
