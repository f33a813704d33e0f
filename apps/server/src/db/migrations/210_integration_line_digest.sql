-- The SHA-256 of the bulk line (its exact text) that wrote the version held, when a bulk load's set wrote
-- it; NULL when anything else did (a single-record call, a line applied on its own, a removal). A re-sent
-- line with the same text is then answered `unchanged` without checking its record again (decision 041).
-- Nullable without a default: added without rewriting the table (docs/operations.md).
ALTER TABLE integration_record ADD COLUMN line_sha256 text;
