import type { CustomerEventItem } from '@portal/contracts/integration/events';
import { eventsById, readEvents } from '../../platform/customer-events';
import type { PlatformContext } from '../../platform/module';
import { listDeadLetters, revive } from './events.repository';
import { sequenceEvents, webhookDispatcher } from './webhooks';

/** A dead delivery as the insurer sees it: its receiver, its event, and how it failed. */
interface DeadLetter {
  id: number;
  endpoint_id: string;
  event_id: string;
  type: string;
  attempts: number;
  last_error: string | null;
  last_status: number | null;
}

/**
 * The customers' changes as the insurer's systems take them: the pull feed of the platform's journal of
 * changes (platform/customer-events.ts), in order of position, and the webhook deliveries that failed for
 * good, to retry.
 */
export interface EventsService {
  /** The feed from `after` (a position), in order, and the position to read on from. */
  feed(after: number, limit: number): Promise<{ events: CustomerEventItem[]; next: number }>;
  deadLetters(): Promise<DeadLetter[]>;
  /** Puts a dead delivery back in the queue, due now; false when there is no dead delivery with that id. */
  retry(deliveryId: number): Promise<boolean>;
}

const DEAD_LETTER_LIMIT = 500;

export function createEventsService(ctx: PlatformContext): EventsService {
  return {
    async feed(after, limit) {
      // Sequenced here too, so the feed is current even where no dispatcher has run since the change.
      await sequenceEvents(ctx);
      const rows = await readEvents(ctx.db, after, limit);
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

    async deadLetters() {
      const dead = await listDeadLetters(ctx.db, DEAD_LETTER_LIMIT);
      const events = new Map(
        (
          await eventsById(
            ctx.db,
            dead.map((d) => Number(d.event_row_id)),
          )
        ).map((e) => [Number(e.id), e]),
      );
      return dead.flatMap((d) => {
        const event = events.get(Number(d.event_row_id));
        if (!event) return [];
        const { event_row_id: _row, ...delivery } = d;
        return [{ ...delivery, event_id: event.event_id, type: event.type }];
      });
    },

    async retry(deliveryId) {
      const revived = await revive(ctx.db, deliveryId, ctx.clock.now());
      if (revived) webhookDispatcher(ctx).wake();
      return revived;
    },
  };
}
