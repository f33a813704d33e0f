import type { FastifyInstance } from 'fastify';
import { deadLettersCall, eventFeedCall, retryDeadLetterCall } from '@portal/contracts/integration/events';
import { notFound } from '../../platform/errors';
import type { PlatformContext } from '../../platform/module';
import { createEventsService } from './events';
import { route } from '../../platform/route';
import { setDispatchLog, webhookDispatcher } from './webhooks';

/** The pull feed and the webhook dead letters (events.read). */
export async function eventRoutes(app: FastifyInstance, ctx: PlatformContext): Promise<void> {
  const events = createEventsService(ctx);
  route(app, eventFeedCall, ({ query }) => events.feed(query.after, query.limit));
  route(app, deadLettersCall, async () => ({
    deadLetters: (await events.deadLetters()).map((d) => ({
      deliveryId: String(d.id),
      endpointId: d.endpoint_id,
      eventId: d.event_id,
      type: d.type,
      attempts: d.attempts,
      lastError: d.last_error,
      lastStatus: d.last_status,
    })),
  }));
  route(app, retryDeadLetterCall, async ({ params }) => {
    if (!(await events.retry(Number(params.deliveryId)))) {
      throw notFound('No dead delivery has that id.');
    }
    return { deliveryId: params.deliveryId, status: 'pending' as const };
  });
}

/**
 * Runs the webhook dispatcher while the app runs: it starts when the app is ready (sending what an earlier
 * run left) and stops, after the posts in flight, when the app closes.
 */
export function installWebhookDispatcher(app: FastifyInstance, ctx: PlatformContext): void {
  setDispatchLog(ctx, app.log);
  // Created here, outside any request: the dispatcher's passes run in this (empty) async context.
  const dispatcher = webhookDispatcher(ctx);
  app.addHook('onReady', async () => dispatcher.start());
  app.addHook('onClose', async () => dispatcher.stop());
}
