-- The contact centre's staff (issue 41). A staff member signs in at the insurer's workforce identity
-- provider; the console then holds a server-side session: its cookie carries a random id, of which only
-- the SHA-256 is stored here. It ends after STAFF_SESSION_IDLE_MINUTES without a call, or
-- STAFF_SESSION_MAX_HOURS after sign-in, or at sign-out. Staff are not customers: nothing here refers to
-- a customer, and customers' tokens and sessions are never accepted where these are (and the reverse).
CREATE TABLE staff_session (
  id_hash text PRIMARY KEY,
  -- The provider's subject and issuer: who this is, whatever their name or email becomes.
  subject text NOT NULL,
  issuer text NOT NULL,
  name text NOT NULL,
  email text NOT NULL,
  roles text[] NOT NULL,
  -- The session's CSRF token (a write must send it in X-CSRF-Token); random, not derived from the id.
  csrf_token text NOT NULL,
  created_at timestamptz NOT NULL,
  last_seen_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  ended_at timestamptz
);
CREATE INDEX staff_session_expires_idx ON staff_session (expires_at);

-- A sign-in under way: what the callback checks (state, nonce) and needs (the PKCE verifier), for ten
-- minutes. The browser that started it holds the state in a cookie (login CSRF).
CREATE TABLE staff_sign_in (
  state text PRIMARY KEY,
  nonce text NOT NULL,
  code_verifier text NOT NULL,
  -- The console page to open after sign-in (a path under /staff/).
  return_to text NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX staff_sign_in_created_idx ON staff_sign_in (created_at);
