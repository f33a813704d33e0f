-- Links into the insurer's policy system that the integration API may give per policy and per quote
-- (docs/integration.md). NULL: the portal's configured policy-system link, as before.
ALTER TABLE policy
  ADD COLUMN mid_term_adjustment_url text CHECK (mid_term_adjustment_url IS NULL OR mid_term_adjustment_url ~ '^https://'),
  ADD COLUMN view_renewal_url text CHECK (view_renewal_url IS NULL OR view_renewal_url ~ '^https://'),
  ADD COLUMN request_a_change_url text CHECK (request_a_change_url IS NULL OR request_a_change_url ~ '^https://');

ALTER TABLE quote
  ADD COLUMN quote_and_buy_url text CHECK (quote_and_buy_url IS NULL OR quote_and_buy_url ~ '^https://');
