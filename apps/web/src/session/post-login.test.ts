import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setPageInit } from '../lib/page-init';
import { testPageInit } from '../test/content-fixtures';
import { captureLoginParams } from './login-params';
import { decodeBase64, safeDestination, takePostLoginPath } from './post-login';

const here = 'https://portal.example';

beforeEach(() => setPageInit({ ...testPageInit, accountBaseUrl: 'https://account.portal.example/svc' }));
afterEach(() => setPageInit(undefined));

describe('post-login addresses', () => {
  it('decodes base64 and base64url redirect_url values as UTF-8', () => {
    expect(decodeBase64(btoa('/account/policies?id=102X4567891'))).toBe('/account/policies?id=102X4567891');
    expect(decodeBase64('L2FjY291bnQ_eD0x')).toBe('/account?x=1');
    expect(decodeBase64('%%%')).toBeNull();
    expect(decodeBase64(btoa('\xff\xfe'))).toBeNull();
  });

  it('allows site paths and https addresses of the portal and its services only', () => {
    expect(safeDestination('/account/dashboard', here)).toEqual({
      kind: 'internal',
      path: '/account/dashboard',
    });
    expect(safeDestination(`${here}/account/bills-and-payments?x=1`, here)).toEqual({
      kind: 'internal',
      path: '/account/bills-and-payments?x=1',
    });
    expect(safeDestination('https://account.portal.example/svc/thing', here)).toEqual({
      kind: 'external',
      url: 'https://account.portal.example/svc/thing',
    });
    for (const bad of [
      '//evil.example/x',
      '/\\evil.example',
      'https://evil.example/',
      'javascript:alert(1)',
      'http://account.portal.example/svc',
      '',
    ]) {
      expect(safeDestination(bad, here)).toBeNull();
    }
  });

  it('keeps redirect_url and RelayState from the sign-in address', () => {
    captureLoginParams('?redirect_url=abc%3D&RelayState=%2Fx&other=1');
    expect(sessionStorage.getItem('redirect_url')).toBe('abc=');
    expect(sessionStorage.getItem('RelayState')).toBe('/x');
  });

  it('takes the stored page once, falling back to the dashboard', () => {
    sessionStorage.setItem('redirectAfterLogin', '/account/policies?id=102X4567891');
    expect(takePostLoginPath('/account/dashboard')).toBe('/account/policies?id=102X4567891');
    expect(takePostLoginPath('/account/dashboard')).toBe('/account/dashboard');
    sessionStorage.setItem('redirectAfterLogin', 'https://evil.example/');
    expect(takePostLoginPath('/account/dashboard')).toBe('/account/dashboard');
  });
});
