-- OpenID provider state: sessions, interactions, authorization codes, grants, refresh tokens and the
-- rest of oidc-provider's models, one row each, shared by every instance. `consumed_at` is set once, by
-- a conditional UPDATE, so two instances never both redeem one code or refresh token.
CREATE TABLE oidc_payload (
  model text NOT NULL,
  id text NOT NULL,
  payload jsonb NOT NULL,
  grant_id text,
  user_code text,
  uid text,
  expires_at timestamptz,
  consumed_at timestamptz,
  PRIMARY KEY (model, id)
);
CREATE INDEX oidc_payload_grant_idx ON oidc_payload (model, grant_id) WHERE grant_id IS NOT NULL;
CREATE INDEX oidc_payload_uid_idx ON oidc_payload (model, uid) WHERE uid IS NOT NULL;
CREATE INDEX oidc_payload_user_code_idx ON oidc_payload (model, user_code) WHERE user_code IS NOT NULL;
CREATE INDEX oidc_payload_expires_idx ON oidc_payload (expires_at) WHERE expires_at IS NOT NULL;

-- Key material generated on first start when none is configured (development and tests only; production
-- must configure OIDC_JWKS and OIDC_COOKIE_KEYS). Written once: the first instance's insert wins.
CREATE TABLE oidc_key_material (
  name text PRIMARY KEY,
  value jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
