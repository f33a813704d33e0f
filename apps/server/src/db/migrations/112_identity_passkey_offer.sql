-- The offer to set up a passkey once a new registration's first code is accepted (issue 25): when the
-- customer last answered "not now". The offer then stays away for 30 days; adding a passkey ends it.
CREATE TABLE identity_passkey_offer (
  user_id text PRIMARY KEY REFERENCES identity_user (id) ON DELETE CASCADE,
  declined_at timestamptz NOT NULL
);
