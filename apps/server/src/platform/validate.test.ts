import { contactMessage } from '@portal/contracts/contact';
import { paginationQuery } from '@portal/contracts/common';
import { updatePreferencesBody } from '@portal/contracts/account';
import { describe, expect, it } from 'vitest';
import { HttpError } from './errors';
import { checkOutput, parseInput } from './validate';

/** The 400 a bad input is answered with, as parseInput throws it. */
function rejection(run: () => unknown): HttpError {
  try {
    run();
  } catch (error) {
    if (error instanceof HttpError) return error;
    throw error;
  }
  throw new Error('parseInput accepted the input');
}

// The contracts are zod/mini schemas: the messages below prove the server still answers in English.
describe('parseInput with the contracts', () => {
  it('answers the parsed value, with defaults and coercion applied', () => {
    expect(parseInput(paginationQuery, { page: '2' }, 'query')).toEqual({ page: 2, pageSize: 10 });
  });

  it("names each bad field with the contract's own message", () => {
    const error = rejection(() =>
      parseInput(contactMessage, { productType: ' ', messageType: 'Change', messageText: 'Hello' }),
    );
    expect(error.statusCode).toBe(400);
    expect(error.code).toBe('BAD_REQUEST');
    expect(error.message).toBe('The request body is not valid.');
    expect(error.fieldErrors).toEqual({ productType: 'Choose what your message is about' });
  });

  it("uses zod's English messages where the contract gives none", () => {
    const error = rejection(() =>
      parseInput(contactMessage, {
        productType: 'x'.repeat(101),
        messageType: 42,
        messageText: 'Hello',
        extra: true,
      }),
    );
    expect(error.fieldErrors).toEqual({
      productType: 'Too big: expected string to have <=100 characters',
      messageType: 'Invalid input: expected string, received number',
      body: 'Unrecognized key: "extra"',
    });
    const query = rejection(() => parseInput(paginationQuery, { page: 'two' }, 'query'));
    expect(query.fieldErrors).toEqual({ page: 'Enter a page number' });
  });

  it('keys an issue about the whole input by the part of the request', () => {
    const error = rejection(() => parseInput(updatePreferencesBody, {}));
    expect(error.fieldErrors).toEqual({
      body: 'Send marketingPreferences, correspondencePreferences, noticePreferences or a mix',
    });
  });
});

describe('checkOutput', () => {
  it('answers the parsed response and throws on a contract mismatch', () => {
    expect(checkOutput(paginationQuery, {})).toEqual({ page: 1, pageSize: 10 });
    expect(() => checkOutput(paginationQuery, { page: 0 })).toThrow(/does not match its contract/);
  });
});
