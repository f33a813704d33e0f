-- Messages from the insurer to a customer (issue 40 point 6): loaded through the integration API by the
-- customer and the insurer's message id, shown in the portal's "Your messages". Owned by the message
-- module; a customer's rows go when the customer is erased (its erasure port).
CREATE TABLE customer_message (
  customer_id text NOT NULL REFERENCES customer (customer_id) ON DELETE CASCADE,
  message_id text NOT NULL CHECK (message_id ~ '^[A-Za-z0-9_-]{1,64}$'),
  subject text NOT NULL,
  -- The content service's rich-text subset, checked by the contract before it is written.
  body text NOT NULL,
  category text NOT NULL CHECK (category IN ('renewal', 'payment', 'claim', 'general')),
  -- What the message links to: a policy of the customer's, a document of theirs (a bill, a policy's or a
  -- quote's document). Checked when written; resolved again when read (either may have gone since).
  policy_number text,
  document_id text,
  -- When the insurer sent it (what the customer sees as received): the record's sentAt, else the time
  -- the portal first received it.
  sent_at timestamptz NOT NULL,
  -- From then the customer no longer sees it; null: never.
  expires_at timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (customer_id, message_id)
);
-- "Your messages": a customer's messages, newest first.
CREATE INDEX customer_message_list_idx ON customer_message (customer_id, sent_at DESC, message_id DESC);

-- Messages the customer has opened, on any device: a message without a row is unread. A changed message
-- (subject, body, category or links) loses its row: it is unread again, as its notice says "updated".
CREATE TABLE customer_message_read (
  customer_id text NOT NULL,
  message_id text NOT NULL,
  read_at timestamptz NOT NULL,
  PRIMARY KEY (customer_id, message_id),
  FOREIGN KEY (customer_id, message_id) REFERENCES customer_message (customer_id, message_id) ON DELETE CASCADE
);
