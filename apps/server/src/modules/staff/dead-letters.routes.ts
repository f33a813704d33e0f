import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  discardDeadLetterCall,
  listDeadLettersCall,
  retryDeadLetterCall,
} from '@portal/contracts/staff-content';
import { writeAudit } from '../../platform/audit';
import { notFound } from '../../platform/errors';
import { discardDeadLetter, listDeadLetters, retryDeadLetter } from '../../platform/notifier/queue';
import type { Queryable } from '../../platform/db';
import { route } from '../../platform/route';
import type { StaffMember } from '../../platform/staff-guard';
import type { StaffContext } from './context';

/**
 * The operator's dead letters (issue 42 point 5): the platform's message queue, its rows given up. Listed
 * without recipient or text; sent again or discarded with a reason, each audited in the change's
 * transaction (`staff.operations.deadLetterRetry`, `.deadLetterDiscard`).
 */
export async function deadLetterRoutes(app: FastifyInstance, ctx: StaffContext) {
  route(app, listDeadLettersCall, async ({ reply }) => {
    reply.header('cache-control', 'no-store');
    const items = await listDeadLetters(ctx.db, 100);
    return { items: items.map((d) => ({ ...d, createdAt: d.createdAt.toISOString() })) };
  });

  const audited = async (
    input: {
      staff?: StaffMember | undefined;
      request: FastifyRequest;
      params: { id: string };
      body: { reason: string };
    },
    eventId: string,
    change: (tx: Queryable, now: Date) => Promise<boolean>,
  ) => {
    const now = ctx.clock.now();
    await ctx.db.transaction(async (tx) => {
      if (!(await change(tx, now))) throw notFound('There is no such dead letter.');
      await writeAudit(tx, {
        source: 'server',
        eventId,
        onBehalfOf: `staff:${input.staff!.subject}`,
        sessionId: input.staff!.sessionId,
        correlationId: input.request.correlationId,
        isSuccess: true,
        occurredAt: now,
        details: { messageId: input.params.id, reason: input.body.reason },
      });
    });
  };
  route(app, retryDeadLetterCall, async (input) => {
    await audited(input, 'staff.operations.deadLetterRetry', (tx, now) =>
      retryDeadLetter(tx, input.params.id, now),
    );
    return input.reply.code(204).send();
  });
  route(app, discardDeadLetterCall, async (input) => {
    await audited(input, 'staff.operations.deadLetterDiscard', (tx) =>
      discardDeadLetter(tx, input.params.id),
    );
    return input.reply.code(204).send();
  });
}
