-- The content store: site settings, navigation, pages (keyed by normalised relative URL) and the
-- feature-flag definitions. Loaded from the files in content/ by the content seed.
CREATE TABLE content_item (
  kind text NOT NULL CHECK (kind IN ('settings', 'navigation', 'page', 'feature_flags')),
  key text NOT NULL CHECK (length(key) BETWEEN 1 AND 2048),
  body jsonb NOT NULL,
  -- Hash of the validated body: the seed only rewrites a row (and moves updated_at) when it changes.
  content_hash text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (kind, key)
);
