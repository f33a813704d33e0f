import { describe, expect, it } from 'vitest';
import { customerProfile, getMfaDisplayNameCall, mfaDisplayName, mfaMethodParams } from './profile';

const margaret = {
  firstName: 'Margaret',
  lastName: 'Thompson',
  dateOfBirthFormatted: '17/04/1952',
  addressLineOne: 'Bluebell Cottage',
  addressLineTwo: '12 Church Lane',
  addressLineThree: 'Little Harwood',
  town: 'Ledbury',
  county: 'Herefordshire',
  postCode: 'HR8 2AB',
  emailAddress: 'margaret.thompson@example.co.uk',
  mobileNumber: '07700900123',
  landlineNumber: '01632960456',
  passwordLastUpdated: '2024-03-03T14:05:00Z',
};

describe('profile', () => {
  it('accepts a full profile', () => {
    expect(customerProfile.parse(margaret)).toEqual(margaret);
  });

  it('accepts missing contact numbers, email and password date as null', () => {
    const sparse = {
      ...margaret,
      addressLineThree: '',
      emailAddress: null,
      mobileNumber: null,
      landlineNumber: null,
      passwordLastUpdated: null,
    };
    expect(customerProfile.safeParse(sparse).success).toBe(true);
  });

  it('refuses a date of birth not in DD/MM/YYYY and a password date without a zone', () => {
    expect(customerProfile.safeParse({ ...margaret, dateOfBirthFormatted: '1952-04-17' }).success).toBe(
      false,
    );
    expect(customerProfile.safeParse({ ...margaret, dateOfBirthFormatted: '31/13/1952' }).success).toBe(
      false,
    );
    expect(customerProfile.safeParse({ ...margaret, passwordLastUpdated: '3rd March 2024' }).success).toBe(
      false,
    );
  });

  it('refuses a profile missing a field', () => {
    const { postCode: _p, ...noPostcode } = margaret;
    expect(customerProfile.safeParse(noPostcode).success).toBe(false);
  });
});

describe('factor display names', () => {
  it('accepts masked numbers', () => {
    expect(mfaDisplayName.safeParse({ displayName: 'Mobile ending 123' }).success).toBe(true);
    expect(mfaDisplayName.safeParse({ displayName: 'Landline ending 0456' }).success).toBe(true);
  });

  it.each(['07700900123', '07700 900123', '0770-090-0123', 'Mobile 07700900123'])(
    'refuses a full number %j',
    (displayName) => {
      expect(mfaDisplayName.safeParse({ displayName }).success).toBe(false);
    },
  );

  it('takes sms or call as the method', () => {
    expect(mfaMethodParams.safeParse({ customerId: 'C1000001', method: 'sms' }).success).toBe(true);
    expect(mfaMethodParams.safeParse({ customerId: 'C1000001', method: 'call' }).success).toBe(true);
    expect(mfaMethodParams.safeParse({ customerId: 'C1000001', method: 'email' }).success).toBe(false);
    expect(getMfaDisplayNameCall.service).toBe('account');
  });
});
