-- Passkeys (WebAuthn): a third kind of identity_authenticator (decision 024). Each passkey is its own
-- factor row (ACTIVE from the start: the browser's ceremony is its confirmation), with the credential's
-- columns below; the customer's name, added and last used times are the common columns.
ALTER TABLE identity_authenticator DROP CONSTRAINT identity_authenticator_kind_check;
ALTER TABLE identity_authenticator
  ADD CONSTRAINT identity_authenticator_kind_check CHECK (kind IN ('totp', 'backup_codes', 'webauthn'));

-- The credential id (base64url), unique across every customer: a sign-in with a passkey alone finds its
-- customer from it.
ALTER TABLE identity_authenticator ADD COLUMN credential_id text;
CREATE UNIQUE INDEX identity_authenticator_credential_idx ON identity_authenticator (credential_id)
  WHERE credential_id IS NOT NULL;
-- The COSE public key (base64url). Public: nothing secret is kept for a passkey.
ALTER TABLE identity_authenticator ADD COLUMN public_key text;
-- The authenticator's signature counter as last seen (0 for most passkeys, which do not count).
ALTER TABLE identity_authenticator ADD COLUMN sign_count bigint;
-- How the browser may reach it (internal, hybrid, usb, nfc, ble), comma-separated.
ALTER TABLE identity_authenticator ADD COLUMN transports text;
-- 'singleDevice' or 'multiDevice' (synced), and whether it is backed up now; the authenticator's model.
ALTER TABLE identity_authenticator ADD COLUMN device_type text;
ALTER TABLE identity_authenticator ADD COLUMN backed_up boolean;
ALTER TABLE identity_authenticator ADD COLUMN aaguid text;

-- WebAuthn challenges: single use (DELETE ... RETURNING), 5 minutes, bound to their purpose and to the
-- customer (registration) or the sign-in transaction (second step). In the database, so any instance
-- finishes what another began. Housekeeping deletes expired ones.
CREATE TABLE identity_webauthn_challenge (
  challenge text PRIMARY KEY,
  purpose text NOT NULL CHECK (purpose IN ('register', 'signin', 'second-step')),
  user_id text REFERENCES identity_user (id) ON DELETE CASCADE,
  transaction_id text REFERENCES identity_transaction (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX identity_webauthn_challenge_expiry_idx ON identity_webauthn_challenge (expires_at);
