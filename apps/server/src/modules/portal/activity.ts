import type {
  ActivityItem,
  ActivityKind,
  ActivityMethod,
  ActivityPage,
} from '@portal/contracts/account-activity';
import { activityChannels } from '@portal/contracts/account-activity';
import { badRequest } from '../../platform/errors';
import type { Queryable } from '../../platform/db';
import { customerTrailSql } from '../../platform/audit';
import { maskPhone } from '../identity';

/**
 * "Your account activity" (issue 26 point 4, docs/decisions/027): the customer's own security and consent
 * history, read from the audit trail. Only server rows (the SPA's own analytics-like rows are not
 * evidence), only rows of this customer acting for themselves (on_behalf_of empty or their own id) or of
 * the insurer's contact centre acting for them (staff:<subject>, issue 41: "Our contact centre unlocked
 * your sign-in"; who it was is not said), never the insurer's systems' or anyone else's, and only the
 * events below, each turned into a kind from the contract's closed list and a few plain facts. Nothing of
 * a row is copied through unchecked: ids, correlation ids, session ids, failure reasons and a staff
 * member's reason stay in the trail.
 */

interface Row {
  /** The row's id as text (a bigint): named apart from `id` so ORDER BY reads the column, not this. */
  row_id: string;
  /** occurred_at, in microseconds as UTC text: the cursor needs the exact instant. */
  at_exact: string;
  occurred_at: Date;
  event_id: string;
  is_success: boolean | null;
  failure_reason: string | null;
  details: Record<string, unknown> | null;
  /** Done by the contact centre for the customer (on_behalf_of staff:<subject>). */
  by_staff: boolean;
}

/**
 * The event ids shown. Where one event id covers several things, `shown` below picks the rows the
 * customer sees (a failed password rule, a sign-in of an account not yet active, ...): in code rather
 * than SQL, so the query stays simple to plan (planned afresh for every request) and the index does the
 * work; a page short of rows the code left out reads on from where it stopped.
 */
const activityEventIds: readonly string[] = [
  'identity.signin',
  'identity.lockout',
  'identity.unlock',
  'identity.mfa.sent',
  'identity.mfa.failed',
  'identity.password.verify',
  'identity.password.set',
  'identity.password.reset.requested',
  'identity.activation',
  // Only the contact centre's (the customer's own registration is 'identity.activation' once used).
  'identity.activation.issued',
  'identity.factor.app-added',
  'identity.factor.app-removed',
  'identity.factor.passkey-added',
  'identity.factor.passkey-removed',
  'identity.factor.backup-codes-created',
  'identity.factor.backup-codes-removed',
  'identity.signin.new_device',
  'profile.email.code.sent',
  'profile.email.changed',
  'profile.mobile.changed',
  'session.ended',
  'oidc.session.ended',
  'account.closed',
  'preferences.marketing.updated',
  'preferences.correspondence.updated',
  'contact.sent',
  'document.notice.sent',
  'document.notice.failed',
  'preferences.notices.updated',
  // Sharing the screen with the contact centre (issue 41 point 6, shared-view.service.ts).
  'screen_share.code.created',
  'screen_share.started',
  'screen_share.page',
  'screen_share.ended',
];

/** Whether a row of a listed event id is one the customer sees. */
function shown(row: Row): boolean {
  switch (row.event_id) {
    case 'identity.signin':
      return (
        row.is_success === true ||
        row.failure_reason === 'WRONG_PASSWORD' ||
        row.failure_reason === 'LOCKED_OUT'
      );
    case 'identity.unlock':
    case 'identity.mfa.sent':
    case 'identity.password.reset.requested':
    case 'identity.activation':
      return row.is_success === true;
    case 'identity.password.verify':
      return row.is_success === false;
    case 'identity.password.set':
      return row.is_success === true && ['change', 'recovery'].includes(String(row.details?.['purpose']));
    // A notice that could not be delivered is a failure row the customer is told of.
    case 'document.notice.failed':
      return true;
    default:
      return row.is_success !== false;
  }
}

/** The SELECT of one batch; $1 customer, $2 limit, and with a cursor $3 occurred_at and $4 id. */
export function activitySql(withCursor: boolean): string {
  return customerTrailSql(activityEventIds, withCursor);
}

/* The cursor: base64url of "<occurred_at in microseconds, UTC>|<id>". Opaque to the SPA; checked here. */

const CURSOR_AT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

function encodeCursor(row: Row): string {
  return Buffer.from(`${row.at_exact}|${row.row_id}`, 'utf8').toString('base64url');
}

const positionOf = (row: Row) => ({ at: row.at_exact, id: row.row_id });

function decodeCursor(cursor: string): { at: string; id: string } {
  const refused = () =>
    badRequest('That is not a page of your account activity.', { cursor: 'Not a cursor from this list' });
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const [at, id, ...rest] = text.split('|');
  if (rest.length > 0 || !at || !id || !CURSOR_AT.test(at) || !/^[1-9]\d{0,17}$/.test(id)) throw refused();
  if (Number.isNaN(Date.parse(at))) throw refused();
  return { at, id };
}

/* Facts: each read defensively, never copied through whole. */

const str = (v: unknown, max = 200): string | undefined =>
  typeof v === 'string' && v.trim() !== '' && v.length <= max ? v.trim() : undefined;

function maskEmail(address: string): string | undefined {
  const at = address.lastIndexOf('@');
  if (at < 1) return undefined;
  const domain = address.slice(at + 1);
  if (!/^[A-Za-z0-9.-]{1,100}$/.test(domain)) return undefined;
  return `${address[0]}•••@${domain}`;
}

function maskNumber(phone: string): string | undefined {
  return /\d{3}$/.test(phone.replace(/\s/g, '')) ? maskPhone(phone) : undefined;
}

const signInMethods: Record<string, ActivityMethod> = {
  sms: 'text',
  call: 'call',
  totp: 'authenticator-app',
  backup_code: 'backup-code',
  webauthn: 'passkey',
};
const factorMethods: Record<string, ActivityMethod> = {
  sms: 'text',
  call: 'call',
  totp: 'authenticator-app',
  backup_codes: 'backup-codes',
  backup_code: 'backup-code',
  webauthn: 'passkey',
  email: 'email',
};

/** "Chrome on Windows" from the details a sign-in or session event may carry. */
function browserOf(details: Record<string, unknown>): string | undefined {
  const browser = str(details['browser'], 40);
  const os = str(details['os'], 40);
  const words = browser && os ? `${browser} on ${os}` : browser;
  return words && /^[\p{L}\p{N} .()/_-]+$/u.test(words) ? words : undefined;
}

function destinationOf(
  details: Record<string, unknown>,
  kind: 'phone' | 'email' | 'any',
): string | undefined {
  for (const key of ['destination', 'phoneNumber', 'to', 'email', 'newEmail', 'mobile', 'newMobile']) {
    const value = str(details[key]);
    if (!value) continue;
    if (value.includes('@')) {
      if (kind !== 'phone') return maskEmail(value);
    } else if (kind !== 'email') {
      return maskNumber(value);
    }
  }
  return undefined;
}

/** What the contact centre did for the customer (issue 41 point 5), in its own words; null for the rest. */
function contactCentreItemOf(row: Row, item: ItemMaker): ActivityItem | null {
  if (row.is_success !== true) return null;
  const d = row.details ?? {};
  switch (row.event_id) {
    case 'identity.unlock':
      return item('contact-centre-unlocked');
    case 'identity.activation.issued':
      return item('contact-centre-activation-sent');
    case 'session.ended': {
      const count = d['count'];
      return item('contact-centre-signed-out', {
        count: typeof count === 'number' && Number.isInteger(count) && count >= 0 ? count : undefined,
      });
    }
    case 'identity.factor.app-removed':
      return item('contact-centre-method-removed', { method: 'authenticator-app' });
    case 'identity.factor.passkey-removed':
      return item('contact-centre-method-removed', { method: 'passkey' });
    case 'identity.factor.backup-codes-removed':
      return item('contact-centre-method-removed', { method: 'backup-codes' });
    case 'profile.email.changed':
      return item('contact-centre-email-changed', { destination: destinationOf(d, 'email') });
    case 'screen_share.started':
      return item('contact-centre-view-started');
    case 'screen_share.page': {
      const page = str(d['title'], 120);
      return item('contact-centre-viewed-page', { page });
    }
    case 'screen_share.ended':
      return item('contact-centre-view-ended');
    default:
      return null;
  }
}

type ItemMaker = (kind: ActivityKind, facts?: Partial<ActivityItem>) => ActivityItem;

/** One row as the customer reads it; null for a row the customer does not see. */
function activityItemOf(row: Row): ActivityItem | null {
  const d = row.details ?? {};
  const at = row.occurred_at.toISOString();
  const item: ItemMaker = (kind, facts = {}) => {
    const out: ActivityItem = { at, kind };
    for (const [key, value] of Object.entries(facts)) {
      if (value !== undefined) (out as Record<string, unknown>)[key] = value;
    }
    return out;
  };
  if (row.by_staff) return contactCentreItemOf(row, item);
  if (!shown(row)) return null;
  switch (row.event_id) {
    case 'identity.signin':
      if (row.is_success) {
        return item('signed-in', {
          method: signInMethods[String(d['mfaSendMethod'])],
          browser: browserOf(d),
        });
      }
      if (row.failure_reason === 'WRONG_PASSWORD') return item('sign-in-wrong-password');
      if (row.failure_reason === 'LOCKED_OUT') return item('sign-in-while-locked');
      return null;
    case 'identity.lockout': {
      const until = str(d['lockedUntil'], 40);
      return item('account-locked', {
        until: until && !Number.isNaN(Date.parse(until)) ? new Date(until).toISOString() : undefined,
      });
    }
    case 'identity.unlock':
      return item('account-unlocked');
    case 'identity.mfa.sent':
      return item('code-sent', {
        method: d['mfaSendMethod'] === 'call' ? 'call' : 'text',
        destination: destinationOf(d, 'phone'),
      });
    case 'profile.email.code.sent':
      return item('code-sent', { method: 'email', destination: destinationOf(d, 'email') });
    case 'identity.mfa.failed':
      return item('code-wrong', { method: factorMethods[String(d['factorType'])] });
    case 'identity.password.verify':
      return item('password-check-wrong');
    case 'identity.password.set':
      return item(d['purpose'] === 'recovery' ? 'password-reset' : 'password-changed');
    case 'identity.password.reset.requested':
      return item('password-reset-requested');
    case 'identity.activation':
      return item('account-activated');
    case 'identity.factor.app-added':
      return item('method-added', { method: 'authenticator-app' });
    case 'identity.factor.app-removed':
      return item('method-removed', { method: 'authenticator-app' });
    case 'identity.factor.passkey-added':
      return item('method-added', { method: 'passkey' });
    case 'identity.factor.passkey-removed':
      return item('method-removed', { method: 'passkey' });
    case 'identity.factor.backup-codes-created':
      return item('backup-codes-created', { method: 'backup-codes' });
    case 'identity.factor.backup-codes-removed':
      return item('method-removed', { method: 'backup-codes' });
    case 'identity.signin.new_device':
      return item('new-device-email', { browser: browserOf(d) });
    case 'profile.email.changed':
      return item('email-changed', { destination: destinationOf(d, 'email') });
    case 'profile.mobile.changed':
      return item('mobile-changed', { destination: destinationOf(d, 'phone') });
    case 'session.ended': {
      const count = d['count'];
      return item('sessions-ended', {
        scope: d['scope'] === 'others' ? 'others' : 'one',
        count: typeof count === 'number' && Number.isInteger(count) && count >= 0 ? count : undefined,
      });
    }
    case 'oidc.session.ended':
      return item('signed-out');
    case 'account.closed':
      return item('account-closed');
    case 'preferences.marketing.updated': {
      const chosen = new Set(String(d['marketingChannels'] ?? '').split(','));
      return item('marketing-choice', { channels: activityChannels.filter((c) => chosen.has(c)) });
    }
    case 'preferences.correspondence.updated':
      return item('paperless-choice', { paperless: d['correspondencePreference'] === 'paperless' });
    case 'contact.sent': {
      const about = str(d['productType'], 20);
      return item('contact-message-sent', {
        about: about && /^[A-Z]{2,20}$/.test(about) ? about : undefined,
      });
    }
    case 'preferences.notices.updated':
      return item('notice-choice');
    case 'document.notice.sent':
      return item(d['channel'] === 'sms' ? 'document-notice-texted' : 'document-notice-sent');
    case 'document.notice.failed':
      return item(d['channel'] === 'sms' ? 'document-notice-text-failed' : 'document-notice-failed');
    case 'screen_share.code.created':
      return item('share-code-created');
    case 'screen_share.ended':
      return item('shared-view-ended');
    default:
      return null;
  }
}

/** Batches read for one page at most (each the rows still wanted and one more). */
const MAX_BATCHES = 5;

/**
 * One page of the customer's activity, newest first, from the cursor's position (a bad cursor is a 400).
 * Reads the rows still wanted and one more; rows the customer does not see are skipped, and reading goes
 * on from the last row read until the page is full or the trail ends.
 */
export async function listActivity(
  db: Queryable,
  customerId: string,
  query: { cursor?: string | undefined; pageSize: number },
): Promise<ActivityPage> {
  const { pageSize } = query;
  let position = query.cursor ? decodeCursor(query.cursor) : null;
  let last: Row | null = null;
  const items: ActivityItem[] = [];
  for (let batch = 0; batch < MAX_BATCHES; batch++) {
    const wanted = pageSize - items.length;
    const params: unknown[] = [customerId, wanted + 1];
    if (position) params.push(position.at, position.id);
    const { rows } = await db.query<Row>(activitySql(position !== null), params);
    for (const row of rows) {
      // A full page with a row after it: the next page starts after the last row read.
      if (items.length === pageSize) return { items, nextCursor: encodeCursor(last!) };
      last = row;
      const item = activityItemOf(row);
      if (item) items.push(item);
    }
    if (rows.length <= wanted) return { items, nextCursor: null };
    position = positionOf(last!);
  }
  // Page after page of rows the customer does not see: a shorter page, and the next goes on from here.
  return { items, nextCursor: encodeCursor(last!) };
}
