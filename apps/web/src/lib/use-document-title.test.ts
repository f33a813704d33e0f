import { describe, expect, it } from 'vitest';
import { documentTitle } from './use-document-title';

describe('documentTitle', () => {
  it('puts the page title first and the site name after', () => {
    expect(documentTitle('Your dashboard')).toBe('Your dashboard | Meridian Mutual');
  });
  it('does not repeat the site name when content already has it', () => {
    expect(documentTitle('Sign in to your account - Meridian Mutual')).toBe(
      'Sign in to your account - Meridian Mutual',
    );
  });
  it('falls back to the site name', () => {
    expect(documentTitle(undefined)).toBe('Meridian Mutual');
    expect(documentTitle('  ')).toBe('Meridian Mutual');
  });
});
