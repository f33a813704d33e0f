import { describe, expect, it } from 'vitest';
import { documentTitle } from './use-document-title';

describe('documentTitle', () => {
  it('puts the page title first and the site name after, in one pattern', () => {
    expect(documentTitle('Your dashboard')).toBe('Your dashboard – Meridian Mutual');
  });
  it('keeps the one pattern when content already names the site, with any separator', () => {
    for (const title of [
      'Sign in to your account - Meridian Mutual',
      'Sign in to your account | Meridian Mutual',
      'Sign in to your account – Meridian Mutual',
    ]) {
      expect(documentTitle(title)).toBe('Sign in to your account – Meridian Mutual');
    }
  });
  it('falls back to the site name', () => {
    expect(documentTitle(undefined)).toBe('Meridian Mutual');
    expect(documentTitle('  ')).toBe('Meridian Mutual');
    expect(documentTitle('Meridian Mutual')).toBe('Meridian Mutual');
  });
});
