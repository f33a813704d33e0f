import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { FullPageLoader } from './full-page-loader';
import { createLoaderStore, LOADER_TEXT } from './loader-store';
import html from '../../../index.html?raw';

/** index.html paints a copy of the loader before any JavaScript runs; the app's loader must replace it unseen. */
describe('the loader in index.html', () => {
  const staticRoot = new DOMParser().parseFromString(html, 'text/html').getElementById('root');

  it('says what the app loader says', () => {
    expect(staticRoot?.textContent?.trim()).toBe(LOADER_TEXT);
  });

  it('looks like the app loader while it is visible: the same elements and classes', () => {
    const store = createLoaderStore();
    store.add();
    const { container } = render(<FullPageLoader store={store} />);
    const shape = (root: Element) =>
      [...root.querySelectorAll('*')].map((el) => `${el.tagName.toLowerCase()}.${el.className}`);
    expect(shape(staticRoot!)).toEqual(shape(container));
  });
});
