-- "Where you are signed in" (issue 26, decision 025): what a customer needs to recognise each of their
-- sign-in sessions, one row per OpenID grant (the access token's `gid`). Only what is shown is kept: the
-- browser and operating system as parsed from the user agent (not the user agent itself) and the network
-- as a masked address (not the address). A row goes with its grant: the foreign key deletes it whenever
-- the grant row is deleted (sign-out, a session ended from the profile, a password change or reset,
-- refresh-token reuse, erasure, the purge of expired rows); housekeeping also removes rows of grants that
-- have expired.
CREATE TABLE portal_sign_in_session (
  id uuid PRIMARY KEY,
  grant_model text NOT NULL DEFAULT 'Grant' CHECK (grant_model = 'Grant'),
  grant_id text NOT NULL UNIQUE,
  account_id text NOT NULL,
  customer_id text NOT NULL,
  browser text,
  os text,
  network text,
  started_at timestamptz NOT NULL,
  last_used_at timestamptz NOT NULL,
  FOREIGN KEY (grant_model, grant_id) REFERENCES oidc_payload (model, id) ON DELETE CASCADE
);
CREATE INDEX portal_sign_in_session_customer ON portal_sign_in_session (customer_id);

-- The browsers (browser and operating system family, e.g. "Chrome|Windows") each customer has signed in
-- from, and when last: a sign-in from one not seen in 90 days emails the customer (issue 26 point 5).
-- Housekeeping deletes rows not seen for longer than that.
CREATE TABLE portal_known_browser (
  customer_id text NOT NULL,
  browser_key text NOT NULL,
  first_seen_at timestamptz NOT NULL,
  last_seen_at timestamptz NOT NULL,
  PRIMARY KEY (customer_id, browser_key)
);
CREATE INDEX portal_known_browser_last_seen ON portal_known_browser (last_seen_at);
