import type { ModuleContext } from '../platform/module';
import { modules } from '../modules';

/** Runs every module's idempotent seed, in module order (customers before the identities that link to them). */
export async function seedAll(ctx: ModuleContext): Promise<void> {
  for (const mod of modules) {
    if (mod.seed) await mod.seed(ctx);
  }
}
