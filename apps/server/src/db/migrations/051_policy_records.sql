-- Policy module: policy records (the policy data area builds on these later).

CREATE TABLE policy (
  -- Three digits, X, seven digits; or three digits, Q or P, eight digits.
  policy_number text PRIMARY KEY CHECK (policy_number ~ '^[0-9]{3}(X[0-9]{7}|[QP][0-9]{8})$'),
  customer_id text NOT NULL REFERENCES customer (customer_id),
  product_type text NOT NULL,
  product_name text NOT NULL,
  status text NOT NULL
    CHECK (status IN ('Active', 'Upcoming', 'Expired', 'Renewing', 'RenewalCustomerReady')),
  start_date date NOT NULL,
  renewal_date date NOT NULL,
  annual_premium numeric(12, 2) NOT NULL CHECK (annual_premium >= 0),
  payment_frequency text NOT NULL,
  vehicle_reg jsonb NOT NULL DEFAULT '[]'::jsonb CHECK (jsonb_typeof(vehicle_reg) = 'array'),
  -- Cover, lines of business and actions, filled by the policy data area.
  details jsonb NOT NULL DEFAULT '{}'::jsonb CHECK (jsonb_typeof(details) = 'object'),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX policy_customer_idx ON policy (customer_id);
