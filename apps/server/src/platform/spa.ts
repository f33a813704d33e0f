import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';

/** Serves the built SPA. (Extended by the foundation work: caching, page-init settings, deep links.) */
export async function installSpa(app: FastifyInstance, _config: Config) {
  app.setNotFoundHandler(async (request, reply) =>
    reply.status(404).send({ code: 'NOT_FOUND', message: 'Not found', correlationId: request.correlationId }),
  );
}
