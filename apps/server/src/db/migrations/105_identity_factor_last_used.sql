-- When a text or call code last finished a sign-in (or an activation or recovery) with this number: the
-- verify page offers the method the customer used last first, whether a phone number or an app
-- (identity_authenticator.last_used_at). Null until used; a changed number is a new row and starts null.
ALTER TABLE identity_factor ADD COLUMN last_used_at timestamptz;
