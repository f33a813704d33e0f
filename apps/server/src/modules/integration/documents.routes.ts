// PLACEHOLDER (helper D replaces this file).
import type { FastifyInstance } from 'fastify';
import type { ModuleContext } from '../../platform/module';

export async function documentRoutes(_app: FastifyInstance, _ctx: ModuleContext): Promise<void> {}
