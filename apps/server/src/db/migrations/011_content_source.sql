-- The fingerprint of the content/ files last loaded into content_item, so a start whose files have not
-- changed skips reading and validating them again. One row.
CREATE TABLE content_source (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  fingerprint text NOT NULL,
  seeded_at timestamptz NOT NULL
);
