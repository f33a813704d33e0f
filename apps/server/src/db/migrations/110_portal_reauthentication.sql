-- A sign-in session's recent password confirmation (step-up before a sign-in method changes): one row
-- per OpenID grant (the access token's `gid`), good until `confirmed_until`. Housekeeping deletes
-- expired rows; a row whose grant has ended is useless, as no token of that grant is accepted.
CREATE TABLE portal_reauthentication (
  grant_id text PRIMARY KEY,
  account_id text NOT NULL,
  confirmed_until timestamptz NOT NULL
);
CREATE INDEX portal_reauthentication_until ON portal_reauthentication (confirmed_until);
