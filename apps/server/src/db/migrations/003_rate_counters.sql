-- Sliding-window counters for rate limits (used when REDIS_URL is not set). One row per counted
-- event; rows older than their window are pruned as keys are touched and in the background.
CREATE TABLE rate_counter_hit (
  id bigserial PRIMARY KEY,
  key text NOT NULL,
  at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX rate_counter_hit_key_idx ON rate_counter_hit (key, at);
CREATE INDEX rate_counter_hit_expires_idx ON rate_counter_hit (expires_at);
