// PLACEHOLDER (helper D replaces this file): document packs, billing accounts and documents, files.
import type { ModuleContext } from '../../platform/module';
import type { IntegrationResource } from './service';

export function documentResources(_ctx: ModuleContext): IntegrationResource[] {
  return [];
}
