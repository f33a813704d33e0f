-- Messages to customers waiting to be sent through a provider (SMTP, the SMS/voice gateway): the
-- notifier writes a row, in the caller's transaction when it has one, and a worker in every instance
-- claims due rows (FOR UPDATE SKIP LOCKED), sends them after the request has answered, and retries
-- failures with exponential back-off. Rows outlive restarts; a row claimed by an instance that died is
-- taken again once its lease (locked_until) has passed. See docs/decisions/014-message-queue.md.
CREATE TABLE message_queue (
  id bigserial PRIMARY KEY,
  created_at timestamptz NOT NULL,
  channel text NOT NULL CHECK (channel IN ('sms', 'voice', 'email')),
  -- As given by the caller (the provider gets it as written); cleared once sent.
  recipient text,
  kind text NOT NULL,
  subject text,
  -- May hold a code or a link; cleared once sent.
  body text,
  customer_id text,
  -- pending: due at next_attempt_at; sending: claimed until locked_until; sent; dead: gave up.
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sending', 'sent', 'dead')),
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL,
  locked_until timestamptz,
  sent_at timestamptz,
  -- The provider's failure without personal data, e.g. "SMTP delivery failed (451)".
  last_error text
);
-- What a worker looks for: rows still to send, soonest first.
CREATE INDEX message_queue_due_idx ON message_queue (next_attempt_at, id)
  WHERE status IN ('pending', 'sending');
