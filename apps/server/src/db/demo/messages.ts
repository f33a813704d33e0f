import type { CustomerMessageRecordInput } from '@portal/contracts/integration/messages';
import { demoSeedActor, type DemoContext } from './context';

type DemoMessage = Omit<CustomerMessageRecordInput, 'version'> & {
  messageId: string;
  /** Opened already (on some device): not marked unread. */
  read: boolean;
};

/** The instant `days` days before (after, when positive) `today`, at `time` UTC. */
const at = (today: Date, days: number, time = '09:30:00') =>
  `${new Date(today.getTime() + days * 864e5).toISOString().slice(0, 10)}T${time}Z`;

/**
 * The demo messages from the insurer ("Your messages", issue 40 point 6), dated back from today: Margaret
 * and Owen each have one unread about a policy of theirs, read ones (one with a document), and one that
 * has expired, which they do not see.
 */
function demoMessages(today: Date): Array<{ customerId: string; messages: DemoMessage[] }> {
  return [
    {
      customerId: 'C1000001',
      messages: [
        {
          messageId: 'renewal-ready-ngh',
          category: 'renewal',
          subject: 'Your home insurance renewal is ready to view',
          body:
            '<p>Your home insurance renews soon. Your renewal documents are ready, and you can view your renewal online.</p>' +
            '<p>Please check your details and cover carefully. If anything has changed, <a href="/contact-us">tell us</a> before your renewal date.</p>',
          policyNumber: '102Q45678913',
          sentAt: at(today, -2),
          read: false,
        },
        {
          messageId: 'winter-home',
          category: 'general',
          subject: 'Getting your home ready for winter',
          body:
            '<p>Cold weather brings burst pipes and storm damage. A few simple checks now can save a lot of trouble:</p>' +
            '<ul><li>Know where your stopcock is and check it turns.</li><li>Lag pipes in the loft and garage.</li><li>Clear gutters and drains.</li></ul>' +
            '<p>If the worst happens, <a href="/make-a-claim">tell us about it online</a>.</p>',
          sentAt: at(today, -20),
          read: true,
        },
        {
          messageId: 'direct-debit-set-up',
          category: 'payment',
          subject: 'Your Direct Debit is set up',
          body: '<p>Thank you. Your Direct Debit for your home insurance is set up. Your confirmation is linked below: please keep it for your records.</p>',
          documentId: 'ba10000011-dd',
          sentAt: at(today, -40),
          read: true,
        },
        {
          messageId: 'claim-closed-motor',
          category: 'claim',
          subject: 'We have closed your claim',
          body: '<p>We have settled your claim for the damage to your car, and closed it. Thank you for your patience.</p><p>If you have any questions, <a href="/contact-us">send us a message</a>.</p>',
          policyNumber: '102Q45678912',
          sentAt: at(today, -95),
          read: true,
        },
        {
          messageId: 'office-closed',
          category: 'general',
          subject: 'Our offices are closed on Monday',
          body: '<p>Our offices are closed on Monday for the bank holiday. You can still make a claim online.</p>',
          sentAt: at(today, -70),
          expiresAt: at(today, -66),
          read: false,
        },
      ],
    },
    {
      customerId: 'C1000017',
      messages: [
        {
          messageId: 'check-your-cover',
          category: 'general',
          subject: 'Check your cover before the winter',
          body:
            '<p>Now is a good time to check your home insurance still suits you: the value of your home and your belongings, and any new valuables.</p>' +
            '<p>You can see what you are covered for on your policy page.</p>',
          policyNumber: '717X1000017',
          sentAt: at(today, -3),
          read: false,
        },
        {
          messageId: 'direct-debit-set-up',
          category: 'payment',
          subject: 'Your Direct Debit is set up',
          body: '<p>Thank you. Your Direct Debit for your home insurance is set up. Your confirmation is linked below: please keep it for your records.</p>',
          documentId: 'ba10000171-dd',
          sentAt: at(today, -74),
          read: true,
        },
        {
          messageId: 'welcome-documents',
          category: 'general',
          subject: 'Your documents are on their way',
          body: '<p>Welcome to Meridian Mutual. Your policy documents will be in your online account within two working days.</p>',
          sentAt: at(today, -75),
          expiresAt: at(today, -45),
          read: false,
        },
      ],
    },
  ];
}

/**
 * Loads the demo messages through the integration API's records, as the insurer's systems would (after
 * the policies and documents they link to), and marks those the demo has read. Its version is the seed's
 * now: a new day moves the dates, and what a message says is unchanged, so nobody is told again and what
 * a customer read stays read.
 */
export async function seedMessages(ctx: DemoContext): Promise<void> {
  const now = ctx.clock.now();
  const version = now.toISOString();
  const { integration, messages } = ctx.services;
  for (const { customerId, messages: list } of demoMessages(now)) {
    for (const { messageId, read: _read, ...message } of list) {
      await integration.upsert(
        'customerMessage',
        `${customerId}/${messageId}`,
        { version, ...message },
        demoSeedActor,
      );
    }
    await messages.markDemoRead(
      customerId,
      list.filter((m) => m.read).map((m) => m.messageId),
    );
  }
}
