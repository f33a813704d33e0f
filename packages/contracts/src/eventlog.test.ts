import { describe, expect, it } from 'vitest';
import { auditEvent, marketingChannelList, postAuditEventCall } from './eventlog';

const minimal = {
  sessionId: 'a1b2c3d4-0000-4000-8000-000000000000',
  eventId: 'Login',
  authenticationStatus: 'Unauthenticated',
};

describe('audit event contract', () => {
  it('accepts the minimal event and every spec field', () => {
    expect(auditEvent.safeParse(minimal).success).toBe(true);
    const full = auditEvent.parse({
      ...minimal,
      customerId: 'C1000001',
      onBehalfOf: 'C1000001',
      isSuccess: true,
      failureReason: 'Token expired',
      mfaSendMethod: 'call',
      mfaUsedForLogin: true,
      documentName: 'Policy schedule.pdf',
      policyNumber: ' 102x4567891 ',
      correspondencePreference: 'paper',
      marketingChannels: 'email,online,phone,post',
      marketingConsent: false,
      authenticationStatus: 'Authenticated',
      stateToken: '00abc',
    });
    expect(full.policyNumber).toBe('102X4567891');
  });

  it('accepts empty strings and nulls for fields that do not apply', () => {
    expect(
      auditEvent.safeParse({
        ...minimal,
        customerId: '',
        onBehalfOf: null,
        failureReason: '',
        policyNumber: '',
        marketingChannels: '',
        mfaSendMethod: null,
      }).success,
    ).toBe(true);
  });

  it.each([
    ['an unknown field', { ...minimal, password: 'secret' }],
    ['no session id', { eventId: 'Login', authenticationStatus: 'Unauthenticated' }],
    ['no event id', { sessionId: 's', authenticationStatus: 'Unauthenticated' }],
    ['no authentication status', { sessionId: 's', eventId: 'Login' }],
    ['an event id with markup', { ...minimal, eventId: '<script>' }],
    ['a send method other than sms or call', { ...minimal, mfaSendMethod: 'email' }],
    [
      'a correspondence preference other than paper or paperless',
      { ...minimal, correspondencePreference: 'both' },
    ],
    ['a malformed customer id', { ...minimal, customerId: 'C1' }],
    ['a malformed policy number', { ...minimal, policyNumber: '102Y4567891' }],
    ['a string for isSuccess', { ...minimal, isSuccess: 'true' }],
  ])('refuses %s', (_name, body) => {
    expect(auditEvent.safeParse(body).success).toBe(false);
  });

  it('reads marketing channels as a comma list of known channels, each once', () => {
    for (const ok of ['', 'email', 'online,post', 'email,online,phone,post', 'post,email']) {
      expect(marketingChannelList.safeParse(ok).success).toBe(true);
    }
    for (const bad of ['sms', 'email,,post', 'email,email', 'email;post', ',']) {
      expect(marketingChannelList.safeParse(bad).success).toBe(false);
    }
  });

  it('is posted to the event-logging service and answered 202', () => {
    expect(postAuditEventCall).toMatchObject({ service: 'eventlog', method: 'POST', path: '/api/v1/audit' });
    expect(postAuditEventCall.responses[202].parse({ accepted: true })).toEqual({ accepted: true });
  });
});
