-- Contact us (spec customer-data §2, §5): each message a customer sends, kept with the answers they
-- picked. Sent on to the insurer's inbox and acknowledged to the customer by email.
CREATE TABLE contact_message (
  id bigserial PRIMARY KEY,
  customer_id text NOT NULL REFERENCES customer (customer_id) ON DELETE CASCADE,
  product_type text NOT NULL CHECK (length(product_type) BETWEEN 1 AND 100),
  message_type text NOT NULL CHECK (length(message_type) BETWEEN 1 AND 100),
  message_text text NOT NULL CHECK (length(message_text) BETWEEN 1 AND 500),
  created_at timestamptz NOT NULL
);
CREATE INDEX contact_message_customer_idx ON contact_message (customer_id, created_at DESC);
