import { normaliseContentPath } from '@portal/contracts/content';
import { provideContentPreview } from '../../platform/content-preview';
import type { ServiceModule } from '../../platform/module';
import { contentRoutes } from './content.routes';
import { createContentService, type ContentService } from './content.service';
import { createContentEditorial, seedContentIfChanged, type ContentEditorial } from './editorial';

declare module '../../platform/services' {
  interface Services {
    content: ContentService;
    /** The editorial side (issue 42): drafts, publishing, history, rollback, the operators' switches. */
    contentEditorial: ContentEditorial;
  }
}

export type { ContentActor, ContentEditorial } from './editorial';

/**
 * The content service: site settings, navigation, pages by relative URL, feature-flag definitions and
 * content media. The files in `content/` seed the store and add new items; editors and publishers change
 * it from the staff console (`services.contentEditorial`), and every instance follows a publish within
 * seconds. Other modules read settings (for example the password rules) through `services.content`.
 */
export const contentModule: ServiceModule<never, 'content' | 'contentEditorial'> = {
  name: 'content',
  tables: [
    'content_item',
    'content_source',
    'content_version',
    'content_draft',
    'content_file_conflict',
    'content_preview',
    'content_revision',
  ],
  provides: { content: createContentService, contentEditorial: createContentEditorial },
  async routes(app, ctx) {
    await contentRoutes(app, ctx.services.content);
    const stop = await ctx.services.content.followPublishes();
    app.addHook('onClose', async () => stop());
    provideContentPreview(ctx, async (token, path) => {
      const bundle = await ctx.services.contentEditorial.previewBundle(token);
      const content = bundle && (await ctx.services.content.publicContentOf(bundle, path));
      return content ? { path: normaliseContentPath(path), ...content } : null;
    });
    // A deploy never silently undoes an editor's change: where a file says otherwise, say so at each start.
    const conflicts = await ctx.services.contentEditorial.fileConflicts().catch(() => []);
    if (conflicts.length > 0) {
      app.log.warn(
        { items: conflicts },
        'Content files differ from what was published in the staff console; the published content is kept (npm run content:export writes it to the files)',
      );
    }
  },
  async seed(ctx) {
    // At start: only when the content files changed since the last seed (see seedContentIfChanged).
    const result = await seedContentIfChanged(ctx);
    if (result !== 'unchanged') ctx.services.content.invalidate();
  },
};
