-- Issue 26 (decision 026): a new email address or mobile number waits here until the 6-digit code sent to
-- it comes back. One live change per account and kind: a new request kills the one before. The code is
-- kept as a salted HMAC bound to the row's id, as identity_code keeps sign-in codes. The new address or
-- number is personal data: never logged, and gone with the account (ON DELETE CASCADE).
CREATE TABLE identity_contact_change (
  id text PRIMARY KEY,
  user_id text NOT NULL REFERENCES identity_user (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('email', 'mobile')),
  new_value text NOT NULL,
  -- False when the address is another account's: no code went to it (a notice did), so none can match.
  deliverable boolean NOT NULL,
  code_hash text NOT NULL,
  salt text NOT NULL,
  max_attempts integer NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  -- Set when a newer request replaced it, its attempts ran out, it expired or its message failed.
  dead_at timestamptz
);
CREATE INDEX identity_contact_change_user_idx ON identity_contact_change (user_id, kind, created_at);
