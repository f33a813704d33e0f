-- What each module's demo-data seed last wrote from (a fingerprint of its inputs), so a start whose
-- demo data has not changed skips the seed: faster starts, and a demo customer's own changes (made
-- through the portal) survive a restart. See db/seed.ts.
CREATE TABLE seed_state (
  seed text PRIMARY KEY,
  fingerprint text NOT NULL,
  seeded_at timestamptz NOT NULL
);
