-- Document notices (issue 40): a paperless customer with an online account is emailed when a bill, a
-- policy document or a quote document arrives or changes. Each new or changed document of theirs is a
-- pending row, written in the transaction that wrote the document; a periodic pass takes the customers
-- whose first pending notice is older than the window (DOCUMENT_NOTICE_WINDOW_MINUTES), queues one email
-- listing them all and marks them sent (`batch_id` shared by the notices of one email), in one
-- transaction. The rows stay as the record of what the customer was told, until the customer is erased.
CREATE TABLE document_notice (
  id bigserial PRIMARY KEY,
  customer_id text NOT NULL,
  document_id text NOT NULL,
  -- bill (billing_document), policy (document of a pack) or quote (document of a quote).
  category text NOT NULL CHECK (category IN ('bill', 'policy', 'quote')),
  -- The document's kind as held (statement, schedule, quote_summary, ...).
  kind text NOT NULL,
  -- new: not held before; updated: a changed version of a held document.
  change text NOT NULL CHECK (change IN ('new', 'updated')),
  -- The policy of a pack's document (the link to its documents page), else null.
  policy_number text,
  created_at timestamptz NOT NULL,
  -- pending: to send; sent: in an email queued; failed: that email could not be delivered; dropped: the
  -- customer was no longer paperless or registered when the pass came.
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed', 'dropped')),
  batch_id text,
  sent_at timestamptz
);
-- What the pass looks for: each customer's pending notices, oldest first.
CREATE INDEX document_notice_pending_idx ON document_notice (created_at, customer_id)
  WHERE status = 'pending';
CREATE INDEX document_notice_customer_idx ON document_notice (customer_id);
CREATE INDEX document_notice_batch_idx ON document_notice (batch_id) WHERE batch_id IS NOT NULL;

-- The message queue's reference of a message, opaque to the platform: what the module that queued it
-- is told with when the message cannot be delivered (a document notice's batch id).
ALTER TABLE message_queue ADD COLUMN reference text;
