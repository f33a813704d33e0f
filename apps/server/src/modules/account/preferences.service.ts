import { recordCustomerEvent } from '../../platform/customer-events';
import type {
  CombinedPreferences,
  CorrespondencePreferences,
  MarketingPreferences,
  NoticePreferences,
  UpdatePreferencesBody,
  UserPreferences,
} from '@portal/contracts/account';
import { isMobileNumber, maskPhone } from '../identity';
import { writeAudit } from '../../platform/audit';
import type { AccountContext } from './context';
import { HttpError, notFound } from '../../platform/errors';
import { findCustomer, findCustomerAddress, type CustomerAddress } from './customer.repository';
import {
  lockPreferences,
  readPreferences,
  writePreferences,
  type MarketingChannel,
  type StoredPreferences,
} from './preferences.repository';

/** Who asked, for the audit trail. */
export interface Actor {
  customerId: string;
  onBehalfOf: string | null;
  sessionId: string | null;
  correlationId: string;
}

/** The audit trail's channel order (spec: "email, online, phone, post as comma list"). */
const auditChannelOrder: MarketingChannel[] = ['email', 'online', 'phone', 'post'];
/** The order of the consent record's channels, as the contract lists them. */
const eventChannelOrder: MarketingChannel[] = ['email', 'phone', 'post', 'online'];

function addressLinesOf(address: CustomerAddress): string[] {
  return [
    address.addressLineOne,
    address.addressLineTwo,
    address.addressLineThree,
    address.town,
    address.county,
    address.postCode,
  ]
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

function marketingOf(stored: StoredPreferences): MarketingPreferences {
  return { ...stored.marketing };
}

/** Stored lines when the customer gave a correspondence address, else the address on record. */
function correspondenceOf(stored: StoredPreferences, address: CustomerAddress): CorrespondencePreferences {
  return {
    paperless: stored.paperless,
    addressLines: stored.addressLines.length > 0 ? stored.addressLines : addressLinesOf(address),
  };
}

/** The mobile on record that notice texts go to: a UK mobile number, else none. */
const textableMobile = (mobile: string | null): string | null =>
  mobile !== null && isMobileNumber(mobile) ? mobile : null;

/**
 * How the customer is told of new documents (issue 40): email always while paperless; text only with a
 * mobile on record (a stored choice with none is not in effect).
 */
function noticesOf(stored: StoredPreferences, mobile: string | null): NoticePreferences {
  const textTo = textableMobile(mobile);
  return {
    email: stored.paperless || stored.notices.email,
    emailRequired: stored.paperless,
    text: stored.notices.text && textTo !== null,
    textTo: textTo === null ? null : maskPhone(textTo),
  };
}

/** 422 naming the notice choice that cannot be made. */
const noticeRefused = (field: 'email' | 'text', message: string) =>
  new HttpError(422, 'NOTICE_CHOICE_REFUSED', message, { [`noticePreferences.${field}`]: message });

export function createPreferencesService(ctx: AccountContext) {
  const { db, clock } = ctx;

  async function load(customerId: string) {
    const address = await findCustomerAddress(db, customerId);
    if (!address) throw notFound('Customer not found');
    return { address, stored: await readPreferences(db, customerId) };
  }

  return {
    async user(customerId: string): Promise<UserPreferences> {
      const customer = await findCustomer(db, customerId);
      if (!customer) throw notFound('Customer not found');
      const { address, stored } = await load(customerId);
      return {
        email: customer.email,
        marketingPreferences: marketingOf(stored),
        correspondencePreferences: correspondenceOf(stored, address),
        noticePreferences: noticesOf(stored, customer.mobileNumber),
        registrationJourney: stored.marketing.online === null,
      };
    },

    async marketing(customerId: string): Promise<MarketingPreferences> {
      return marketingOf((await load(customerId)).stored);
    },

    async correspondence(customerId: string): Promise<CorrespondencePreferences> {
      const { address, stored } = await load(customerId);
      return correspondenceOf(stored, address);
    },

    /**
     * Applies the change and writes one audit row per section changed, all in one transaction. A notice
     * choice that cannot be made (no email while paperless, texts with no mobile) is 422 and changes
     * nothing.
     */
    async update(actor: Actor, body: UpdatePreferencesBody): Promise<CombinedPreferences> {
      const address = await findCustomerAddress(db, actor.customerId);
      if (!address) throw notFound('Customer not found');
      const customer = await findCustomer(db, actor.customerId);
      if (!customer) throw notFound('Customer not found');
      const now = clock.now();
      const audit = {
        source: 'server' as const,
        customerId: actor.customerId,
        onBehalfOf: actor.onBehalfOf,
        sessionId: actor.sessionId,
        correlationId: actor.correlationId,
        isSuccess: true,
        occurredAt: now,
      };
      const stored = await db.transaction(async (tx) => {
        const before = await lockPreferences(tx, actor.customerId, now);
        const notices = body.noticePreferences;
        if (notices) {
          const paperless = body.correspondencePreferences?.paperless ?? before.paperless;
          if (notices.email === false && paperless) {
            throw noticeRefused(
              'email',
              'While your documents are paperless, we always email you when one is ready',
            );
          }
          if (notices.text === true && textableMobile(customer.mobileNumber) === null) {
            throw noticeRefused('text', 'Add a mobile number to your details to get text messages');
          }
        }
        const after = await writePreferences(
          tx,
          actor.customerId,
          {
            ...(body.marketingPreferences ? { marketing: body.marketingPreferences } : {}),
            ...(body.correspondencePreferences
              ? {
                  paperless: body.correspondencePreferences.paperless,
                  ...(body.correspondencePreferences.addressLines !== undefined
                    ? { addressLines: body.correspondencePreferences.addressLines }
                    : {}),
                }
              : {}),
            ...(notices ? { notices } : {}),
          },
          now,
        );
        if (body.marketingPreferences) {
          await writeAudit(tx, {
            ...audit,
            eventId: 'preferences.marketing.updated',
            details: {
              marketingChannels: auditChannelOrder.filter((c) => after.marketing[c] === true).join(','),
              marketingConsent: after.marketing.online,
              changedChannels: auditChannelOrder.filter((c) => before.marketing[c] !== after.marketing[c]),
            },
          });
          // The consent record the insurer keeps. Never having answered the online channel is what puts
          // the customer on the first-sign-in step (`registrationJourney` above), so it says which journey.
          await recordCustomerEvent(ctx, tx, {
            type: 'customer.marketing.updated',
            customerId: actor.customerId,
            occurredAt: now,
            data: {
              marketing: marketingOf(after),
              changed: eventChannelOrder.filter((c) => before.marketing[c] !== after.marketing[c]),
              journey: before.marketing.online === null ? 'registration' : 'preferences',
              channel: 'portal',
            },
          });
        }
        if (body.correspondencePreferences) {
          await writeAudit(tx, {
            ...audit,
            eventId: 'preferences.correspondence.updated',
            details: {
              correspondencePreference: after.paperless ? 'paperless' : 'paper',
              previousCorrespondencePreference: before.paperless ? 'paperless' : 'paper',
              addressLinesReplaced: body.correspondencePreferences.addressLines !== undefined,
            },
          });
          await recordCustomerEvent(ctx, tx, {
            type: 'customer.correspondence.updated',
            customerId: actor.customerId,
            occurredAt: now,
            data: { paperless: after.paperless, previous: before.paperless },
          });
        }
        if (notices) {
          const was = noticesOf(before, customer.mobileNumber);
          const chosen = noticesOf(after, customer.mobileNumber);
          await writeAudit(tx, {
            ...audit,
            eventId: 'preferences.notices.updated',
            details: {
              noticeEmail: chosen.email,
              noticeText: chosen.text,
              changed: (['email', 'text'] as const).filter((c) => was[c] !== chosen[c]),
            },
          });
          // Sent to the insurer as the consent records are: how the customer asked to be told.
          await recordCustomerEvent(ctx, tx, {
            type: 'customer.notices.updated',
            customerId: actor.customerId,
            occurredAt: now,
            data: {
              email: chosen.email,
              text: chosen.text,
              previous: { email: was.email, text: was.text },
            },
          });
        }
        return after;
      });
      return {
        marketingPreferences: marketingOf(stored),
        correspondencePreferences: correspondenceOf(stored, address),
        noticePreferences: noticesOf(stored, customer.mobileNumber),
      };
    },
  };
}

export type PreferencesService = ReturnType<typeof createPreferencesService>;
