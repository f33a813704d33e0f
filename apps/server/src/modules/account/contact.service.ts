import { recordCustomerEvent } from '../../platform/customer-events';
import type { ContactMessage, ContactMessageResult } from '@portal/contracts/contact';
import { writeAudit } from '../../platform/audit';
import { counterStore } from '../../platform/counters';
import { badRequest, HttpError, tooManyRequests } from '../../platform/errors';
import type { AccountContext } from './context';
import {
  DeliveryError,
  notifier,
  SEND_NOW_RETRY_AFTER_SECONDS,
  type NotifyLog,
} from '../../platform/notifier';
import { contactAcknowledgementEmail, contactMessageEmail } from './contact-emails';
import { insertContactMessage } from './contact.repository';

/** Messages a customer may send in CONTACT_WINDOW_MS, across every instance. */
export const CONTACT_LIMIT = 10;
const CONTACT_WINDOW_MS = 60 * 60 * 1000;
const CONTACT_PAGE = '/contact-us';

export interface ContactCaller {
  customerId: string;
  onBehalfOf: string | null;
  sessionId: string | null;
  correlationId: string;
  log?: NotifyLog;
}

/**
 * Contact us (spec customer-data §2, §5): the product and message type must be one of the pairs the
 * contact page offers (and not one whose content sends the customer elsewhere); at most CONTACT_LIMIT an
 * hour per customer. The message goes to the insurer's inbox first: if that fails nothing is stored and
 * the customer is told (their text stays on the screen). Then it is stored and audited together, and
 * acknowledged to the customer by email.
 */
export function createContactService(ctx: AccountContext) {
  async function offered(productType: string, messageType: string): Promise<boolean> {
    const page = await ctx.services.content.getPage(CONTACT_PAGE);
    const form = page?.blocks.find((b) => b.type === 'contactForm');
    if (!form || form.type !== 'contactForm') return false;
    const primary = form.primaryQuestion.answers.find((a) => a.productType === productType);
    const secondary = primary?.secondaryAnswers.find((a) => a.messageType === messageType);
    return secondary !== undefined && secondary.override === undefined;
  }

  return {
    async send(caller: ContactCaller, message: ContactMessage): Promise<ContactMessageResult> {
      if (!(await offered(message.productType, message.messageType))) {
        throw badRequest('Choose what your message is about from the questions offered.', {
          messageType: 'Choose the kind of message from the questions offered',
        });
      }
      const counters = await counterStore(ctx);
      const decision = await counters.take(`contact:${caller.customerId}`, CONTACT_LIMIT, CONTACT_WINDOW_MS);
      if (!decision.allowed) throw tooManyRequests(decision.retryAfterSeconds);

      const customer = await ctx.services.customers.get(caller.customerId);
      const send = notifier(ctx);
      try {
        // The customer is told whether the inbox took it (503 with Retry-After if not): sent now, not queued.
        await send.sendNow(
          contactMessageEmail({
            to: ctx.config.messaging.contactInbox,
            customerId: caller.customerId,
            customerName: customer ? `${customer.firstName} ${customer.lastName}` : null,
            productType: message.productType,
            messageType: message.messageType,
            messageText: message.messageText,
          }),
          caller.log,
        );
      } catch (error) {
        if (error instanceof DeliveryError) {
          throw new HttpError(
            503,
            'DELIVERY_FAILED',
            'Your message could not be sent. Please try again.',
            undefined,
            {
              'Retry-After': String(SEND_NOW_RETRY_AFTER_SECONDS),
            },
          );
        }
        throw error;
      }

      const at = ctx.clock.now();
      await ctx.db.transaction(async (tx) => {
        const id = await insertContactMessage(tx, { ...caller, ...message, at });
        await writeAudit(tx, {
          source: 'server',
          eventId: 'contact.sent',
          customerId: caller.customerId,
          onBehalfOf: caller.onBehalfOf,
          sessionId: caller.sessionId,
          correlationId: caller.correlationId,
          isSuccess: true,
          // What it was about, never what it says.
          details: { messageId: id, productType: message.productType, messageType: message.messageType },
        });
        await recordCustomerEvent(ctx, tx, {
          type: 'customer.contact.sent',
          customerId: caller.customerId,
          occurredAt: at,
          data: {
            messageId: id,
            productType: message.productType,
            messageType: message.messageType,
            messageText: message.messageText,
          },
        });
      });

      if (customer?.email) {
        await send
          .enqueue(
            contactAcknowledgementEmail({
              to: customer.email,
              customerId: caller.customerId,
              firstName: customer.firstName,
            }),
            { log: caller.log },
          )
          // The message has reached us; the acknowledgement is queued and retried, not the customer's problem.
          .catch(() => undefined);
      }
      return { success: true };
    },
  };
}
export type ContactService = ReturnType<typeof createContactService>;
