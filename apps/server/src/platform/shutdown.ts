import type { FastifyInstance } from 'fastify';

declare module 'fastify' {
  interface FastifyInstance {
    /** Whether the instance is draining: still serving, but on its way out (see startDrain). */
    draining: boolean;
  }
}

/**
 * The first step of a graceful stop (server.ts): the instance keeps serving, but `/readyz` answers 503 so
 * a load balancer's health check takes it out, and every answer says `Connection: close` so keep-alive
 * clients (the load balancer's pooled connections among them) reconnect, to another instance. Requests
 * in flight when the drain starts are answered the same way.
 */
export function installDrain(app: FastifyInstance): void {
  app.decorate('draining', false);
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (app.draining) reply.header('Connection', 'close');
    done(null, payload);
  });
}

/** Starts the drain (idempotent): /readyz answers 503 from now on. */
export function startDrain(app: FastifyInstance): void {
  app.draining = true;
}
