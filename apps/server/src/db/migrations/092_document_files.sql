-- The PDFs the insurer made (docs/integration.md): uploaded by the integration API, kept byte for byte and
-- sent to the customer unchanged. Content-addressed: a file's id is the SHA-256 of its bytes, so the same
-- PDF sent twice (an insert leaflet in many packs) is held once. A document without a file is demo data,
-- drawn when asked for as before.
CREATE TABLE document_file (
  sha256 text PRIMARY KEY CHECK (sha256 ~ '^[0-9a-f]{64}$'),
  size integer NOT NULL CHECK (size > 0),
  content bytea NOT NULL,
  created_at timestamptz NOT NULL
);

-- A file cannot go while a document refers to it (no cascade); the name is what the customer saves it as.
ALTER TABLE document
  ADD COLUMN file_sha256 text REFERENCES document_file (sha256),
  ADD COLUMN file_name text,
  ADD CONSTRAINT document_file_named CHECK ((file_sha256 IS NULL) = (file_name IS NULL));
CREATE INDEX document_file_idx ON document (file_sha256) WHERE file_sha256 IS NOT NULL;

ALTER TABLE billing_document
  ADD COLUMN file_sha256 text REFERENCES document_file (sha256),
  ADD COLUMN file_name text,
  ADD CONSTRAINT billing_document_file_named CHECK ((file_sha256 IS NULL) = (file_name IS NULL));
CREATE INDEX billing_document_file_idx ON billing_document (file_sha256) WHERE file_sha256 IS NOT NULL;

-- A file nobody refers to any more goes with the last document that referred to it, in the same
-- transaction, however that document went: replaced, removed, or by cascade when its pack, quote, policy,
-- billing account or customer went (other modules delete those, and know nothing of files). The file row
-- is locked first, so a document referring to it that commits meanwhile is seen, and the file stays.
CREATE FUNCTION document_file_release() RETURNS trigger AS $$
BEGIN
  IF OLD.file_sha256 IS NULL OR (TG_OP = 'UPDATE' AND NEW.file_sha256 IS NOT DISTINCT FROM OLD.file_sha256) THEN
    RETURN NULL;
  END IF;
  PERFORM 1 FROM document_file WHERE sha256 = OLD.file_sha256 FOR UPDATE;
  DELETE FROM document_file f
   WHERE f.sha256 = OLD.file_sha256
     AND NOT EXISTS (SELECT 1 FROM document d WHERE d.file_sha256 = f.sha256)
     AND NOT EXISTS (SELECT 1 FROM billing_document b WHERE b.file_sha256 = f.sha256);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER document_file_release AFTER DELETE OR UPDATE OF file_sha256 ON document
  FOR EACH ROW EXECUTE FUNCTION document_file_release();
CREATE TRIGGER billing_document_file_release AFTER DELETE OR UPDATE OF file_sha256 ON billing_document
  FOR EACH ROW EXECUTE FUNCTION document_file_release();
