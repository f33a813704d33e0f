-- The policies list reads a customer's policies newest start first, a page at a time (issue 27): an index
-- in that order answers it without a sort; it also serves every lookup by customer, so the old one goes.
CREATE INDEX policy_customer_start_idx ON policy (customer_id, start_date DESC, policy_number);
DROP INDEX policy_customer_idx;
