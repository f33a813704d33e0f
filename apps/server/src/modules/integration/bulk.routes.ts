// PLACEHOLDER (the lead writes this file): NDJSON bulk loads.
import type { FastifyInstance } from 'fastify';
import type { ModuleContext } from '../../platform/module';

export async function bulkRoutes(_app: FastifyInstance, _ctx: ModuleContext): Promise<void> {}
