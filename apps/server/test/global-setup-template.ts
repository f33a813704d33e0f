import type { TestProject } from 'vitest/node';
import { provideTemplate } from './global-setup';

/**
 * The embedded database's template alone, for a project that runs after the main group (vitest.config.ts):
 * the PostgreSQL server was already prepared by then.
 */
export default function setup(project: TestProject) {
  return provideTemplate(project);
}
