-- The metrics count the dead letters at every scrape (portal_message_queue_dead_letters): an index of
-- the few dead rows, so the count does not read every message sent.
CREATE INDEX message_queue_dead_idx ON message_queue (id) WHERE status = 'dead';
