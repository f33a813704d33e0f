-- The customers' changes out (docs/integration.md): an outbox of events, written in the transaction of
-- the change itself, so an event exists exactly when its change committed. A sequencer (one at a time,
-- under an advisory lock) gives committed events their feed position in the order it sees them: bigserial
-- ids commit out of order, positions never do, so a reader paging by position never skips one.
CREATE TABLE integration_event (
  id bigserial PRIMARY KEY,
  -- The webhook-id of its deliveries and the id the feed shows.
  event_id uuid NOT NULL UNIQUE,
  type text NOT NULL,
  customer_id text NOT NULL,
  occurred_at timestamptz NOT NULL,
  -- Holds what the customer chose or wrote (a contact message): erased with the customer.
  data jsonb NOT NULL,
  -- Null until sequenced.
  position bigint UNIQUE
);
CREATE INDEX integration_event_unsequenced_idx ON integration_event (id) WHERE position IS NULL;
CREATE INDEX integration_event_customer_idx ON integration_event (customer_id);

-- One row per event and configured receiver, created by the sequencer. A worker in every instance claims
-- due rows (FOR UPDATE SKIP LOCKED), keeping each customer's events to one receiver in position order.
CREATE TABLE webhook_delivery (
  id bigserial PRIMARY KEY,
  endpoint_id text NOT NULL,
  event_row_id bigint NOT NULL REFERENCES integration_event (id) ON DELETE CASCADE,
  customer_id text NOT NULL,
  position bigint NOT NULL,
  -- pending: due at next_attempt_at; sending: claimed until locked_until; delivered; dead: gave up.
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sending', 'delivered', 'dead')),
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL,
  locked_until timestamptz,
  -- Why the last attempt failed, without personal data ("HTTP 500", "timed out").
  last_error text,
  last_status integer,
  delivered_at timestamptz,
  UNIQUE (endpoint_id, event_row_id)
);
CREATE INDEX webhook_delivery_due_idx ON webhook_delivery (next_attempt_at, position)
  WHERE status IN ('pending', 'sending');
-- "Is an earlier delivery of this customer to this receiver still open?"
CREATE INDEX webhook_delivery_open_idx ON webhook_delivery (endpoint_id, customer_id, position)
  WHERE status IN ('pending', 'sending');
CREATE INDEX webhook_delivery_dead_idx ON webhook_delivery (id) WHERE status = 'dead';
CREATE INDEX webhook_delivery_event_idx ON webhook_delivery (event_row_id);
