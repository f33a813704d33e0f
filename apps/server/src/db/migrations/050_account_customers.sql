-- Account module: customer records (insurer-held reference data) and their portal preferences.

CREATE TABLE customer (
  customer_id text PRIMARY KEY CHECK (customer_id ~ '^[A-Za-z0-9_-]{1,64}$'),
  title text NOT NULL DEFAULT '',
  first_name text NOT NULL,
  last_name text NOT NULL,
  date_of_birth date NOT NULL,
  email text CHECK (email IS NULL OR (email <> '' AND length(email) <= 254)),
  mobile_number text,
  landline_number text,
  address_line_1 text NOT NULL DEFAULT '',
  address_line_2 text NOT NULL DEFAULT '',
  address_line_3 text NOT NULL DEFAULT '',
  town text NOT NULL DEFAULT '',
  county text NOT NULL DEFAULT '',
  post_code text NOT NULL,
  -- Registration matches postcodes however they were typed: upper case, no whitespace.
  post_code_normalised text GENERATED ALWAYS AS (upper(regexp_replace(post_code, '\s', '', 'g'))) STORED,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- One customer per email address, whatever its case; many customers may have none.
CREATE UNIQUE INDEX customer_email_ci_key ON customer (lower(email)) WHERE email IS NOT NULL;
CREATE INDEX customer_dob_postcode_idx ON customer (date_of_birth, post_code_normalised);

CREATE TABLE customer_preferences (
  customer_id text PRIMARY KEY REFERENCES customer (customer_id) ON DELETE CASCADE,
  -- NULL: the customer has never answered for that channel.
  marketing_email boolean,
  marketing_phone boolean,
  marketing_post boolean,
  -- NULL: tailored online marketing not asked yet, so the first-sign-in preferences step shows.
  marketing_online boolean,
  paperless boolean NOT NULL DEFAULT false,
  -- Where paper correspondence goes; [] means the customer's own address on record.
  correspondence_address_lines jsonb NOT NULL DEFAULT '[]'::jsonb
    CHECK (jsonb_typeof(correspondence_address_lines) = 'array'),
  updated_at timestamptz NOT NULL DEFAULT now()
);
