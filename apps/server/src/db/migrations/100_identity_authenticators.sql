-- Second factors that are not a phone number: an authenticator app (TOTP, RFC 6238) and a set of backup
-- codes now, passkeys (WebAuthn) later. One row per factor; `kind` says which columns it uses. A passkey
-- will add its kind and its own nullable columns (credential id, public key, counter) beside these.
CREATE TABLE identity_authenticator (
  id text PRIMARY KEY,
  user_id text NOT NULL REFERENCES identity_user (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('totp', 'backup_codes')),
  -- PENDING_ACTIVATION until the first code (TOTP) confirms it; only ACTIVE ones sign in.
  status text NOT NULL CHECK (status IN ('PENDING_ACTIVATION', 'ACTIVE')),
  -- The customer's name for it ("Authenticator app", later "iPhone passkey").
  name text NOT NULL,
  -- TOTP: the shared secret, AES-256-GCM with MFA_ENCRYPTION_KEY: version, iv, tag, ciphertext (base64url,
  -- dot-separated). Never in clear, never logged.
  secret_encrypted text,
  -- TOTP: the last 30-second time step whose code was accepted; a code of that step or earlier is refused.
  last_used_step bigint,
  created_at timestamptz NOT NULL,
  activated_at timestamptz,
  last_used_at timestamptz
);
CREATE INDEX identity_authenticator_user_idx ON identity_authenticator (user_id, kind);

-- The codes of a backup_codes factor: ten single-use codes, shown once; only an HMAC-SHA256 of each is
-- kept (keyed with MFA_ENCRYPTION_KEY). Regenerating replaces the whole set.
CREATE TABLE identity_backup_code (
  factor_id text NOT NULL REFERENCES identity_authenticator (id) ON DELETE CASCADE,
  code_hash text NOT NULL,
  created_at timestamptz NOT NULL,
  used_at timestamptz,
  PRIMARY KEY (factor_id, code_hash)
);
