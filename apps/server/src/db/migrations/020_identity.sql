-- Identity: sign-in accounts (Okta-style users), their second factors, authentication transactions,
-- one-time codes, session tokens and activation/recovery tokens. Every secret is stored hashed.

CREATE TABLE identity_user (
  id text PRIMARY KEY,
  -- The customer record this account signs in as (account module); one account per customer.
  customer_id text NOT NULL UNIQUE,
  -- The email address used to sign in, lower case.
  login text NOT NULL UNIQUE,
  status text NOT NULL CHECK (status IN ('PROVISIONED', 'ACTIVE', 'SUSPENDED', 'DEPROVISIONED')),
  first_name text NOT NULL,
  last_name text NOT NULL,
  password_hash text,
  password_changed_at timestamptz,
  -- Consecutive failed sign-in steps (password or code); reset by a success; 10 lock the account.
  failed_attempts integer NOT NULL DEFAULT 0,
  locked_until timestamptz,
  created_at timestamptz NOT NULL,
  activated_at timestamptz,
  last_login_at timestamptz
);

CREATE TABLE identity_factor (
  id text PRIMARY KEY,
  user_id text NOT NULL REFERENCES identity_user (id) ON DELETE CASCADE,
  factor_type text NOT NULL CHECK (factor_type IN ('sms', 'call')),
  -- National form, digits only (07700900123). Never logged; masked in every answer.
  phone_number text NOT NULL,
  is_mobile boolean NOT NULL,
  created_at timestamptz NOT NULL,
  UNIQUE (user_id, factor_type, phone_number)
);
CREATE INDEX identity_factor_user_idx ON identity_factor (user_id);

-- One Okta authentication transaction: the stateToken's server side. Lives at most 10 minutes.
CREATE TABLE identity_transaction (
  id text PRIMARY KEY,
  state_token_hash text NOT NULL UNIQUE,
  user_id text NOT NULL REFERENCES identity_user (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('signin', 'activation', 'recovery', 'stepup')),
  status text NOT NULL CHECK (
    status IN ('PASSWORD_RESET', 'MFA_REQUIRED', 'MFA_CHALLENGE', 'SUCCESS', 'CANCELLED', 'LOCKED_OUT')
  ),
  factor_id text REFERENCES identity_factor (id) ON DELETE SET NULL,
  -- The new password of an activation or recovery, applied only once the second factor is verified.
  pending_password_hash text,
  send_count integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  completed_at timestamptz
);
CREATE INDEX identity_transaction_user_idx ON identity_transaction (user_id, created_at);

-- One-time codes: bound to their transaction and factor, stored as a salted HMAC.
CREATE TABLE identity_code (
  id bigserial PRIMARY KEY,
  transaction_id text NOT NULL REFERENCES identity_transaction (id) ON DELETE CASCADE,
  factor_id text NOT NULL REFERENCES identity_factor (id) ON DELETE CASCADE,
  code_hash text NOT NULL,
  salt text NOT NULL,
  code_length integer NOT NULL CHECK (code_length IN (5, 6)),
  max_attempts integer NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  -- Set when a newer code replaced it, its attempts ran out or its transaction ended.
  dead_at timestamptz
);
CREATE INDEX identity_code_transaction_idx ON identity_code (transaction_id, factor_id, created_at);

-- One-time session tokens (5 minutes), exchanged at the OpenID Connect authorize endpoint.
CREATE TABLE identity_session_token (
  token_hash text PRIMARY KEY,
  user_id text NOT NULL REFERENCES identity_user (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);

-- Activation (24 hours) and recovery (60 minutes) tokens from emailed links; a newer one voids the older.
CREATE TABLE identity_link_token (
  token_hash text PRIMARY KEY,
  user_id text NOT NULL REFERENCES identity_user (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('activation', 'recovery')),
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  voided_at timestamptz
);
CREATE INDEX identity_link_token_user_idx ON identity_link_token (user_id, kind);
