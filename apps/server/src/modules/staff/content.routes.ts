import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  contentPreviewCall,
  discardContentDraftCall,
  getContentItemCall,
  getOperationsCall,
  listContentItemsCall,
  publishContentCall,
  rollbackContentCall,
  saveContentDraftCall,
  setFlagCall,
  setMaintenanceCall,
  setServiceAlertCall,
} from '@portal/contracts/staff-content';
import type { ContentActor, ContentEditorial } from '../content';
import { CONTENT_PREVIEW_PARAM } from '../../platform/content-preview';
import { route } from '../../platform/route';
import type { StaffMember } from '../../platform/staff-guard';

/**
 * The console's calls on the site's content and operations switches (issue 42), one line each: the guard
 * has checked the session, the role and the CSRF token; the content module checks the change, four eyes,
 * and publishes. Answers are the staff member's view of the moment: no cache keeps them.
 */
export async function contentRoutes(app: FastifyInstance, editorial: ContentEditorial) {
  const actorOf = (input: {
    staff: StaffMember | undefined;
    request: FastifyRequest;
    reply: FastifyReply;
  }): ContentActor => {
    input.reply.header('cache-control', 'no-store');
    const staff = input.staff!;
    return {
      subject: staff.subject,
      name: staff.name,
      roles: staff.roles,
      sessionId: staff.sessionId,
      correlationId: input.request.correlationId,
    };
  };

  route(app, listContentItemsCall, async (input) => {
    actorOf(input);
    return { items: await editorial.list() };
  });
  route(app, getContentItemCall, (input) => editorial.get(input.params.itemId, actorOf(input)));
  route(app, saveContentDraftCall, (input) =>
    editorial.saveDraft(input.params.itemId, actorOf(input), input.body),
  );
  route(app, discardContentDraftCall, (input) => editorial.discardDraft(input.params.itemId, actorOf(input)));
  route(app, publishContentCall, (input) =>
    editorial.publish(input.params.itemId, actorOf(input), input.body),
  );
  route(app, rollbackContentCall, (input) =>
    editorial.rollback(input.params.itemId, actorOf(input), input.body),
  );
  route(app, contentPreviewCall, async (input) => {
    const { token, expiresAt } = await editorial.preview(
      input.params.itemId,
      actorOf(input),
      input.body.path,
    );
    return {
      url: `${input.body.path}?${CONTENT_PREVIEW_PARAM}=${encodeURIComponent(token)}`,
      expiresAt: expiresAt.toISOString(),
    };
  });

  route(app, getOperationsCall, (input) => {
    actorOf(input);
    return editorial.operations();
  });
  route(app, setMaintenanceCall, (input) => editorial.setMaintenance(actorOf(input), input.body));
  route(app, setServiceAlertCall, (input) => editorial.setServiceAlert(actorOf(input), input.body));
  route(app, setFlagCall, (input) => editorial.setFlag(actorOf(input), input.body));
}
