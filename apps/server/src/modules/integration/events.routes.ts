// PLACEHOLDER (helper C replaces this file).
import type { FastifyInstance } from 'fastify';
import type { ModuleContext } from '../../platform/module';

export async function eventRoutes(_app: FastifyInstance, _ctx: ModuleContext): Promise<void> {}
export function installWebhookDispatcher(_app: FastifyInstance, _ctx: ModuleContext): void {}
