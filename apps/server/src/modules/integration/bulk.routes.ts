import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { bulkLoadCall } from '@portal/contracts/integration/bulk';
import type { IntegrationScope } from '@portal/contracts/call';
import { HttpError } from '../../platform/errors';
import type { IntegrationContext } from './context';
import { route, SENT } from '../../platform/route';
import { bulkLoad, isStream } from './bulk';
import { actorOf } from './record-routes';

/**
 * POST /integration/v1/bulk: NDJSON in, NDJSON out, streamed both ways: each line is applied and its
 * result written before the next is read, so a load of any size holds one line in memory, and a client
 * that stops reading slows the load rather than filling the server's memory.
 */
export async function bulkRoutes(app: FastifyInstance, ctx: IntegrationContext): Promise<void> {
  // The body is handed on as the raw stream (no size limit here: each line has its own).
  app.addContentTypeParser('application/x-ndjson', (_request, payload, done) => done(null, payload));

  route(app, bulkLoadCall, ({ request, reply, client }) => {
    if (!isStream(request.body)) {
      throw new HttpError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Send NDJSON: Content-Type application/x-ndjson.');
    }
    const lines = bulkLoad(ctx, request.body, actorOf(request), client!.scopes as IntegrationScope[]);
    const out = Readable.from(
      (async function* () {
        try {
          for await (const result of lines) yield `${JSON.stringify(result)}\n`;
        } catch (error) {
          // The database went away mid-load: what was applied stays; the client resumes later.
          request.log.warn({ err: error }, 'bulk load stopped');
          yield `${JSON.stringify({ stopped: { status: 503, message: 'The load stopped: the service is unavailable. Send the remaining lines again later.' } })}\n`;
        }
      })(),
    );
    reply.status(200).type('application/x-ndjson; charset=utf-8').header('cache-control', 'no-store');
    void reply.send(out);
    return SENT;
  });
}
