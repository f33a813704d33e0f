import { describe, expect, it } from 'vitest';
import {
  CONTACT_MESSAGE_MAX_LENGTH,
  contactMessage,
  contactMessageResult,
  sendContactMessageCall,
} from './contact';

const message = {
  productType: 'Home insurance',
  messageType: 'Make a change to my policy',
  messageText: 'We have had a new conservatory built and would like it added to the cover.',
};

describe('contact message', () => {
  it('accepts a message of up to 500 characters', () => {
    expect(CONTACT_MESSAGE_MAX_LENGTH).toBe(500);
    expect(contactMessage.safeParse(message).success).toBe(true);
    expect(contactMessage.safeParse({ ...message, messageText: 'a'.repeat(500) }).success).toBe(true);
  });

  it('refuses 501 characters with a message naming the limit', () => {
    const result = contactMessage.safeParse({ ...message, messageText: 'a'.repeat(501) });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]).toMatchObject({
      path: ['messageText'],
      message: 'Your message must be 500 characters or fewer',
    });
  });

  it('trims surrounding spaces and refuses a blank message', () => {
    expect(contactMessage.parse({ ...message, messageText: '  Hello  ' }).messageText).toBe('Hello');
    expect(contactMessage.safeParse({ ...message, messageText: '   ' }).success).toBe(false);
    expect(contactMessage.safeParse({ ...message, productType: '' }).success).toBe(false);
    expect(contactMessage.safeParse({ ...message, messageType: undefined }).success).toBe(false);
  });

  it('refuses unknown fields', () => {
    expect(contactMessage.safeParse({ ...message, customerId: 'C1000002' }).success).toBe(false);
  });

  it('answers success true or false', () => {
    expect(contactMessageResult.safeParse({ success: true }).success).toBe(true);
    expect(contactMessageResult.safeParse({ success: 'yes' }).success).toBe(false);
    expect(sendContactMessageCall).toMatchObject({
      service: 'account',
      method: 'POST',
      path: '/api/v1/messaging/contact/:customerId',
      auth: true,
    });
  });
});
