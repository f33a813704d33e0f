-- "Share your screen with us" (issue 41 point 6, decision 039). The customer makes a one-time code on
-- their sign-in and security page (six digits, ten minutes, one use; one live code per customer, a new
-- one replaces it); only its hash is kept, with the wrong tries made against it.
CREATE TABLE portal_share_code (
  customer_id text PRIMARY KEY,
  code_hash text NOT NULL,
  failed_attempts integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX portal_share_code_expires_idx ON portal_share_code (expires_at);

-- A view the contact centre opened with it: who, why, until when (30 minutes at most). The link the agent
-- opens carries a one-time ticket (its hash here, usable for two minutes), exchanged once for the view's
-- token; the grant it is then signed in under is named, so ending the view ends that sign-in.
CREATE TABLE portal_shared_view (
  id uuid PRIMARY KEY,
  customer_id text NOT NULL,
  staff_subject text NOT NULL,
  staff_name text NOT NULL,
  reason text NOT NULL,
  ticket_hash text UNIQUE,
  ticket_expires_at timestamptz,
  grant_id text,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX portal_shared_view_customer_idx ON portal_shared_view (customer_id);
CREATE INDEX portal_shared_view_expires_idx ON portal_shared_view (expires_at);

-- A sign-in session that is a shared view shows who is looking under "Where you're signed in". Nullable,
-- without a default: added without rewriting the table.
ALTER TABLE portal_sign_in_session ADD COLUMN viewer_name text;
