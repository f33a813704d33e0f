-- Documents a customer has opened (issue 40: "New since your last visit"). A document the customer has
-- not opened yet is marked New on the bills and policy documents pages; opening or downloading it (any
-- device) records it here, and the mark is gone everywhere. Owned by the document module; a customer's
-- rows go when the customer is erased. A document removed and loaded again keeps its row: it was opened.
CREATE TABLE document_seen (
  customer_id text NOT NULL,
  document_id text NOT NULL,
  seen_at timestamptz NOT NULL,
  PRIMARY KEY (customer_id, document_id)
);
