-- Drawn PDFs, kept once made (issue 27): keyed by the SHA-256 of everything drawn (the drawing's version,
-- the title, the addressee's name and address, every line), so any change to a document's data makes a new
-- one, and a key names the content of one customer's document. Housekeeping drops those not made lately;
-- a dropped one is drawn again when asked for.
CREATE TABLE document_rendition (
  content_hash text PRIMARY KEY CHECK (content_hash ~ '^[0-9a-f]{64}$'),
  pdf bytea NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX document_rendition_created_idx ON document_rendition (created_at);
