import { emailMessage, facts, paragraph, type OutboundMessage } from '../../platform/notifier';

/*
 * The emails of contact us, each with a plain-text and an HTML part from one description
 * (platform/notifier/email-template.ts).
 */

/**
 * A customer's message to the insurer's customer service inbox: who sent it (their name and customer
 * number, which the inbox needs to answer), what it is about, and their words as typed.
 */
export function contactMessageEmail(input: {
  to: string;
  customerId: string;
  /** The customer's full name on record, or null when there is no record. */
  customerName: string | null;
  productType: string;
  messageType: string;
  messageText: string;
}): OutboundMessage {
  const { customerId, productType, messageType } = input;
  return emailMessage(
    { to: input.to, kind: 'contact-message', customerId },
    {
      subject: `Customer message: ${productType} ${messageType} (${customerId})`,
      blocks: [
        facts([
          ['From', `${input.customerName ?? customerId} (customer ${customerId})`],
          ['About', `${productType}, ${messageType}`],
        ]),
        paragraph(input.messageText),
      ],
    },
  );
}

/** The acknowledgement of a customer's message, to the customer: by first name, and nothing of what they wrote. */
export function contactAcknowledgementEmail(input: {
  to: string;
  customerId: string;
  firstName: string;
}): OutboundMessage {
  return emailMessage(
    { to: input.to, kind: 'contact-acknowledgement', customerId: input.customerId },
    {
      subject: 'We have your message',
      greeting: `Dear ${input.firstName},`,
      blocks: [
        paragraph(
          'Thank you for your message. We will reply within 2 working days.\n' +
            'If your message is urgent, call us free on 0800 123 4567.',
        ),
      ],
    },
  );
}
