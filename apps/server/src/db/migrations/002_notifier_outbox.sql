-- Messages to customers (SMS, voice call, email) recorded by the outbox adapter of the notifier.
-- The dev outbox page and API read it outside production; in production a real provider adapter is
-- normally configured and this table stays empty.
CREATE TABLE outbox_message (
  id bigserial PRIMARY KEY,
  created_at timestamptz NOT NULL,
  channel text NOT NULL CHECK (channel IN ('sms', 'voice', 'email')),
  -- Normalised recipient: digits of a phone number, or a lower-cased email address.
  recipient text NOT NULL,
  kind text NOT NULL,
  subject text,
  body text NOT NULL,
  customer_id text
);
CREATE INDEX outbox_message_recipient_idx ON outbox_message (recipient, id);
