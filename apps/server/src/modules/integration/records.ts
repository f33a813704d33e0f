// PLACEHOLDER (helper B replaces this file): customers, agencies, policies, quotes, notifications.
import type { ModuleContext } from '../../platform/module';
import type { IntegrationResource } from './service';

export function recordResources(_ctx: ModuleContext): IntegrationResource[] {
  return [];
}
