import { emailMessage, maskRecipient, paragraph, type OutboundMessage } from '../../platform/notifier';

/*
 * The emails telling a customer of a change to their online account (password, email address, mobile
 * number, closing), each with a plain-text and an HTML part from one description
 * (platform/notifier/email-template.ts). Each greets the customer by first name and says what to do if
 * the change was not theirs.
 */

/** How to reach us, in the emails and in the text to an old mobile number. */
export const CALL_US = 'call us free on 0800 123 4567';

/** "3 March 2026 at 14:05" in UK time. */
export const ukTime = (at: Date) =>
  at.toLocaleString('en-GB', { timeZone: 'Europe/London', dateStyle: 'long', timeStyle: 'short' });

/** Who the email goes to; the first name is null when there is no customer record (then "Dear customer"). */
interface Recipient {
  to: string;
  customerId: string;
  firstName: string | null;
}

const dear = (r: Recipient) => `Dear ${r.firstName ?? 'customer'},`;
const ifThisWasYou = paragraph('If this was you, there is nothing more to do.');

export function passwordChangedEmail(r: Recipient): OutboundMessage {
  return emailMessage(
    { to: r.to, kind: 'password-changed', customerId: r.customerId },
    {
      subject: 'Your password has been changed',
      greeting: dear(r),
      blocks: [
        paragraph(
          'The password of your online account was changed. If this was you, you need do nothing more.',
        ),
        paragraph('If it was not you, call us straight away, free on 0800 123 4567.'),
      ],
    },
  );
}

/** To the OLD address: the new one is shown masked, never whole. */
export function emailChangedEmail(
  r: Recipient,
  change: { siteName: string; at: Date; newEmail: string },
): OutboundMessage {
  return emailMessage(
    { to: r.to, kind: 'email-changed', customerId: r.customerId },
    {
      subject: 'Your email address has been changed',
      greeting: dear(r),
      blocks: [
        paragraph(
          `The email address of your ${change.siteName} online account was changed on ${ukTime(change.at)} ` +
            `(UK time) to ${maskRecipient(change.newEmail)}. We will send emails to the new address from now on, ` +
            'and you sign in with it.',
        ),
        ifThisWasYou,
        paragraph(`If it was not you, ${CALL_US} straight away so we can secure your account.`),
      ],
    },
  );
}

/** A mobile number changed (`replaced`) or added: the new one is shown by its last 3 digits only. */
export function mobileChangedEmail(
  r: Recipient,
  change: { siteName: string; at: Date; newNumber: string; replaced: boolean },
): OutboundMessage {
  const { replaced } = change;
  return emailMessage(
    { to: r.to, kind: replaced ? 'mobile-changed' : 'mobile-added', customerId: r.customerId },
    {
      subject: replaced ? 'Your mobile number has been changed' : 'A mobile number was added to your account',
      greeting: dear(r),
      blocks: [
        paragraph(
          `${replaced ? 'The mobile number of' : 'A mobile number was added to'} your ${change.siteName} online ` +
            `account ${replaced ? 'was changed ' : ''}on ${ukTime(change.at)} (UK time). We will send security ` +
            `codes by text to the number ending ${change.newNumber.slice(-3)} from now on.`,
        ),
        ifThisWasYou,
        paragraph(`If it was not you, ${CALL_US} straight away so we can secure your account.`),
      ],
    },
  );
}

export function accountClosedEmail(r: Recipient, closing: { siteName: string; at: Date }): OutboundMessage {
  return emailMessage(
    { to: r.to, kind: 'account-closed', customerId: r.customerId },
    {
      subject: 'Your online account is closed',
      greeting: dear(r),
      blocks: [
        paragraph(
          `Your ${closing.siteName} online account was closed on ${ukTime(closing.at)} (UK time), as you asked. ` +
            'You can no longer sign in with your email address and password.',
        ),
        paragraph(
          'Your policies and documents are not affected: we still hold them and your cover continues. ' +
            'You can register for a new online account at any time with the same details.',
        ),
        paragraph(`If you did not close your account, ${CALL_US}.`),
      ],
    },
  );
}
