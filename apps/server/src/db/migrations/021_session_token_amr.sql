-- How the customer proved who they are for this sign-in (RFC 8176 method names: pwd, sms, tel), so the
-- provider session and the ID token can say which second factor was used.
ALTER TABLE identity_session_token ADD COLUMN amr text[] NOT NULL DEFAULT ARRAY['pwd']::text[];
