-- Self-service unlock: a locked account can be unlocked from an emailed link (60 minutes, single use),
-- a third kind of link token beside activation and recovery.
ALTER TABLE identity_link_token DROP CONSTRAINT identity_link_token_kind_check;
ALTER TABLE identity_link_token
  ADD CONSTRAINT identity_link_token_kind_check CHECK (kind IN ('activation', 'recovery', 'unlock'));
