-- Issue 42: content edited in the staff console. Every published version of every content item (the site
-- settings, the service alert, maintenance mode, each modal, the navigation, each page, the feature flags),
-- with who published it and when; the version with the highest number is the item's published one, and
-- content_item (010) holds what they make together, as the content service reads it.
CREATE TABLE content_version (
  item text NOT NULL CHECK (length(item) BETWEEN 1 AND 160),
  version integer NOT NULL CHECK (version >= 1),
  body jsonb NOT NULL,
  source text NOT NULL CHECK (source IN ('file', 'console', 'rollback', 'operations')),
  -- The staff member who published it (the workforce provider's subject, and their name as shown then);
  -- null for a version loaded from the files.
  published_by text,
  published_by_name text,
  -- The editor whose draft it was, when not the publisher.
  edited_by_name text,
  reason text,
  restored_version integer,
  published_at timestamptz NOT NULL,
  PRIMARY KEY (item, version)
);

-- One draft per item: an editor's change, being edited or submitted for publishing.
CREATE TABLE content_draft (
  item text PRIMARY KEY CHECK (length(item) BETWEEN 1 AND 160),
  body jsonb NOT NULL,
  base_version integer NOT NULL,
  state text NOT NULL CHECK (state IN ('editing', 'submitted')),
  edited_by text NOT NULL,
  edited_by_name text NOT NULL,
  updated_at timestamptz NOT NULL
);

-- Items whose file in content/ says something else than a version published from the console: found at
-- start, kept until the two agree again (npm run content:export writes the published content back).
CREATE TABLE content_file_conflict (
  item text PRIMARY KEY,
  file_body jsonb NOT NULL,
  detected_at timestamptz NOT NULL
);

-- Short-lived previews of a draft on a customer's page: the token's hash, the content to show, its end.
CREATE TABLE content_preview (
  token_hash text PRIMARY KEY,
  item text NOT NULL,
  body jsonb NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX content_preview_expires ON content_preview (expires_at);

-- The content store's revision: moved on by every publish, so every instance can tell cheaply (one row)
-- whether its cached content is still current. One row.
CREATE TABLE content_revision (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  revision bigint NOT NULL
);
INSERT INTO content_revision (id, revision) VALUES (true, 1);

-- The content files are loaded again at the next start, into versions this time.
DELETE FROM content_source;
