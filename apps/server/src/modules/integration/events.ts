import { randomUUID } from 'node:crypto';
import { z } from 'zod/mini';
import {
  customerEventData,
  type CustomerEventDataOf,
  type CustomerEventItem,
  type CustomerEventType,
} from '@portal/contracts/integration/events';
import type { Queryable } from '../../platform/db';
import type { ModuleContext } from '../../platform/module';
import { insertEvent, listDeadLetters, readFeed, revive, type DeadLetterRow } from './events.repository';
import { sequenceEvents, webhookDispatcher } from './webhooks';

/**
 * One change of a customer's, as its module records it. `customerId` and `at` of the data are filled in
 * from the event (`at` is `occurredAt`, the clock's now by default).
 */
type CustomerEvent = {
  [T in CustomerEventType]: {
    type: T;
    customerId: string;
    data: Omit<CustomerEventDataOf<T>, 'customerId' | 'at'>;
    occurredAt?: Date;
  };
}[CustomerEventType];

export interface EventsService {
  /** Records one event in the caller's transaction (it is sent only if that commits). */
  record(tx: Queryable, event: CustomerEvent): Promise<void>;
  /** The feed from `after` (a position), in order, and the position to read on from. */
  feed(after: number, limit: number): Promise<{ events: CustomerEventItem[]; next: number }>;
  deadLetters(): Promise<DeadLetterRow[]>;
  /** Puts a dead delivery back in the queue, due now; false when there is no dead delivery with that id. */
  retry(deliveryId: number): Promise<boolean>;
}

const DEAD_LETTER_LIMIT = 500;

export function createEventsService(ctx: ModuleContext): EventsService {
  return {
    async record(tx, event) {
      const occurredAt = event.occurredAt ?? ctx.clock.now();
      // Our own bug if this throws: the change rolls back with it rather than going out malformed.
      const data = z.parse(customerEventData[event.type], {
        customerId: event.customerId,
        ...event.data,
        at: occurredAt.toISOString(),
      });
      await insertEvent(tx, {
        eventId: randomUUID(),
        type: event.type,
        customerId: event.customerId,
        occurredAt,
        data,
      });
      // Not visible until the caller commits: a wake now usually finds it, the next poll surely does.
      webhookDispatcher(ctx).wake();
    },

    async feed(after, limit) {
      // Sequenced here too, so the feed is current even where no dispatcher has run since the change.
      await sequenceEvents(ctx);
      const rows = await readFeed(ctx.db, after, limit);
      return {
        events: rows.map(
          (r) =>
            ({
              id: r.event_id,
              position: Number(r.position),
              type: r.type,
              customerId: r.customer_id,
              occurredAt: new Date(r.occurred_at).toISOString(),
              data: r.data,
            }) as CustomerEventItem,
        ),
        next: rows.length > 0 ? Number(rows[rows.length - 1]!.position) : after,
      };
    },

    deadLetters: () => listDeadLetters(ctx.db, DEAD_LETTER_LIMIT),

    async retry(deliveryId) {
      const revived = await revive(ctx.db, deliveryId, ctx.clock.now());
      if (revived) webhookDispatcher(ctx).wake();
      return revived;
    },
  };
}
