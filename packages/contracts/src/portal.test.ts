import { describe, expect, it } from 'vitest';
import {
  changePasswordBody,
  changePasswordCall,
  passwordChangeError,
  passwordChangeErrorCodes,
  profileCodeSent,
  requestProfileCodeCall,
} from './portal';

describe('profile one-time code request', () => {
  it('takes no body or {} and answers when the code expires and how long it is', () => {
    const body = requestProfileCodeCall.body;
    expect(body?.safeParse(undefined).success).toBe(true);
    expect(body?.safeParse({}).success).toBe(true);
    expect(body?.safeParse({ phoneNumber: '07700900123' }).success).toBe(false);
    expect(
      profileCodeSent.safeParse({ sent: true, expiresAt: '2026-04-01T10:05:00Z', codeLength: 6 }).success,
    ).toBe(true);
    expect(
      profileCodeSent.safeParse({ sent: true, expiresAt: '2026-04-01T10:05:00Z', codeLength: 4 }).success,
    ).toBe(false);
  });

  it('is a portal call for sms or call only', () => {
    const params = requestProfileCodeCall.params!;
    expect(params.safeParse({ customerId: 'C1000001', method: 'sms' }).success).toBe(true);
    expect(params.safeParse({ customerId: 'C1000001', method: 'push' }).success).toBe(false);
    expect(requestProfileCodeCall).toMatchObject({ service: 'portal', method: 'POST', auth: true });
  });
});

describe('password change', () => {
  const body = {
    mfaPassCode: '123456',
    currentPassword: 'BluebellCottage1952',
    newPassword: 'Primrose-Path-2026',
  };

  it('accepts a 6 or 5 digit code with both passwords', () => {
    expect(changePasswordBody.safeParse(body).success).toBe(true);
    expect(changePasswordBody.safeParse({ ...body, mfaPassCode: '12345' }).success).toBe(true);
  });

  it.each([
    [{ mfaPassCode: '1234' }, 'mfaPassCode'],
    [{ mfaPassCode: '1234567' }, 'mfaPassCode'],
    [{ mfaPassCode: '12a456' }, 'mfaPassCode'],
    [{ currentPassword: '' }, 'currentPassword'],
    [{ newPassword: '' }, 'newPassword'],
    [{ newPassword: 'x'.repeat(257) }, 'newPassword'],
  ])('refuses %j', (change, field) => {
    const result = changePasswordBody.safeParse({ ...body, ...change });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual([field]);
  });

  it('refuses unknown fields', () => {
    expect(changePasswordBody.safeParse({ ...body, customerId: 'C1000002' }).success).toBe(false);
  });

  it('takes only the change action', () => {
    const params = changePasswordCall.params!;
    expect(params.safeParse({ customerId: 'C1000001', action: 'change' }).success).toBe(true);
    expect(params.safeParse({ customerId: 'C1000001', action: 'reset' }).success).toBe(false);
  });

  it('carries the spec error codes 1, 2, 3 and a generic 4 in the envelope', () => {
    expect(passwordChangeErrorCodes).toEqual({
      MFA_CODE_INVALID: 1,
      CURRENT_PASSWORD_INVALID: 2,
      NEW_PASSWORD_INVALID: 3,
      PASSWORD_CHANGE_FAILED: 4,
    });
    const wrongCode = {
      code: 'MFA_CODE_INVALID',
      message: 'The code is not right.',
      correlationId: 'c0ffee',
      errorCode: 1,
    };
    expect(passwordChangeError.safeParse(wrongCode).success).toBe(true);
    expect(passwordChangeError.safeParse({ ...wrongCode, errorCode: 5 }).success).toBe(false);
    expect(passwordChangeError.safeParse({ ...wrongCode, errorCode: undefined }).success).toBe(false);
    expect(changePasswordCall.responses[400]).toBe(passwordChangeError);
    expect(
      changePasswordCall.responses[200].safeParse({ passwordLastUpdated: '2026-04-01T10:05:00Z' }).success,
    ).toBe(true);
  });
});
