import { afterEach, describe, expect, it } from 'vitest';
import { makeSettings, page, testNavigation } from '../test/content-fixtures';
import { readPublicContent } from './hydration';

function withBlock(text: string) {
  const element = document.createElement('script');
  element.type = 'application/json';
  element.id = 'portal-content';
  element.textContent = text;
  document.body.append(element);
}

describe('readPublicContent (decision 017)', () => {
  afterEach(() => document.getElementById('portal-content')?.remove());

  const payload = {
    path: '/account/dashboard',
    settings: makeSettings(),
    navigation: testNavigation,
    page: page('/account/dashboard'),
  };

  it("reads the content the server put into the page for the page's own address", () => {
    withBlock(JSON.stringify(payload));
    expect(readPublicContent(document, '/account/dashboard')).toEqual(payload);
    // The content service's paths are case- and slash-insensitive, as the server normalises them.
    expect(readPublicContent(document, '/Account/Dashboard/')).toEqual(payload);
  });

  it('ignores content for another address, content that is not JSON, and no content at all', () => {
    expect(readPublicContent(document, '/account/dashboard')).toBeNull();
    withBlock(JSON.stringify(payload));
    expect(readPublicContent(document, '/account/policies')).toBeNull();
    document.getElementById('portal-content')!.textContent = '{"path": ';
    expect(readPublicContent(document, '/account/dashboard')).toBeNull();
  });
});
