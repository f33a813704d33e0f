import type { ServiceModule } from '../../platform/module';
import { contentRoutes } from './content.routes';
import { createContentService, type ContentService } from './content.service';
import { seedContentIfChanged } from './content.seed';

declare module '../../platform/services' {
  interface Services {
    content: ContentService;
  }
}

/**
 * The content service: site settings, navigation, pages by relative URL, feature-flag definitions and
 * content media, all loaded from the files in `content/` by the seed. Other modules read settings (for
 * example the password rules) through `services.content`.
 */
export const contentModule: ServiceModule<never, 'content'> = {
  name: 'content',
  tables: ['content_item', 'content_source'],
  provides: { content: createContentService },
  async routes(app, ctx) {
    await contentRoutes(app, ctx.services.content);
  },
  async seed(ctx) {
    // At start: only when the content files changed since the last seed (see seedContentIfChanged).
    const result = await seedContentIfChanged(ctx);
    if (result !== 'unchanged') ctx.services.content.invalidate();
  },
};
