// PLACEHOLDER (helper C replaces this file): the customers' changes out.
import type { Queryable } from '../../platform/db';
import type { ModuleContext } from '../../platform/module';

export interface CustomerEvent {
  type: string;
  customerId: string;
  data: Record<string, unknown>;
}

export interface EventsService {
  /** Records one event in the caller's transaction (it is sent only if that commits). */
  record(tx: Queryable, event: CustomerEvent): Promise<void>;
}

export function createEventsService(_ctx: ModuleContext): EventsService {
  return { record: async () => undefined };
}
