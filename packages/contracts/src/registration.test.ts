import { describe, expect, it } from 'vitest';
import {
  completeRegistrationBody,
  registrationBody,
  registrationResult,
  resetPasswordRequestBody,
} from './registration';

const valid = { emailAddress: 'eleanor@example.org', dateOfBirth: '1978-11-25', postCode: 'EX39 2QQ' };

describe('registration contract', () => {
  it('accepts the spec fields and normalises the policy number', () => {
    expect(registrationBody.parse(valid)).toEqual(valid);
    expect(registrationBody.parse({ ...valid, policyNumber: ' 507p87654321 ' }).policyNumber).toBe(
      '507P87654321',
    );
    expect(registrationBody.parse({ ...valid, policyNumber: '102X4567891' }).policyNumber).toBe(
      '102X4567891',
    );
  });

  it('refuses malformed fields, naming each', () => {
    const result = registrationBody.safeParse({
      emailAddress: 'nope',
      dateOfBirth: '25/11/1978',
      postCode: 'EX39 2QQX',
      policyNumber: '102X456789',
    });
    expect(result.success).toBe(false);
    const fields = result.error!.issues.map((i) => i.path[0]).sort();
    expect(fields).toEqual(['dateOfBirth', 'emailAddress', 'policyNumber', 'postCode']);
    // A postcode needs a letter and a digit; unknown fields are refused.
    expect(registrationBody.safeParse({ ...valid, postCode: 'ABCDE' }).success).toBe(false);
    expect(registrationBody.safeParse({ ...valid, postCode: '12345' }).success).toBe(false);
    expect(registrationBody.safeParse({ ...valid, extra: 1 }).success).toBe(false);
    expect(registrationBody.safeParse({ ...valid, dateOfBirth: '2001-02-29' }).success).toBe(false);
  });

  it('has the statuses of the journey', () => {
    for (const status of ['OK', 'OK_1', 'OK_2', 'NEED_MORE_DATA']) {
      expect(registrationResult.parse({ status })).toEqual({ status });
    }
    expect(registrationResult.safeParse({ status: 'Error' }).success).toBe(false);
    expect(resetPasswordRequestBody.safeParse({ email: '' }).success).toBe(false);
    expect(completeRegistrationBody.safeParse({ oktaUserId: '00u1', stateToken: '00s' }).success).toBe(true);
  });
});
