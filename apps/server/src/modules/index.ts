import type { ModuleContext, ServiceModule } from '../platform/module';
import type { Services } from '../platform/services';

/**
 * Every service module, in mounting and seeding order. Each is mounted under the path of its configured
 * base URL. Add a module with one import and one entry here.
 */
export const modules: ServiceModule[] = [];

/**
 * Builds every module's service object into ctx.services (the same object every module holds), in an
 * order where a service only uses those built before it.
 */
export async function createServices(ctx: ModuleContext): Promise<Services> {
  const services = ctx.services as unknown as Record<string, unknown>;
  void services;
  return ctx.services;
}
