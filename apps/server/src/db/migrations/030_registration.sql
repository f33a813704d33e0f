-- Registrations started through the portal and their completion after activation.
CREATE TABLE registration_request (
  id bigserial PRIMARY KEY,
  customer_id text NOT NULL,
  -- The identity user the activation email was for.
  user_id text NOT NULL,
  email text NOT NULL,
  created_at timestamptz NOT NULL,
  completed_at timestamptz
);
CREATE INDEX registration_request_user_idx ON registration_request (user_id, created_at);
