import { pageTypes } from '@portal/contracts/content';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useDocumentTitle } from '../lib/use-document-title';
import { page } from '../test/content-fixtures';
import { renderWithRoot } from '../test/render-with-root';
import { PageView } from './page-view';
import {
  CHUNK_LOAD_TIMEOUT_MS,
  ChunkLoadTimeoutError,
  getLoadedPageComponent,
  isKnownPageType,
  loadPageComponent,
  registerPageType,
  UnknownPageTypeError,
} from './page-registry';

describe('page registry', () => {
  afterEach(() => vi.useRealTimers());

  it('has a component for every page type the spec names', async () => {
    expect(pageTypes).toHaveLength(18);
    for (const type of pageTypes) {
      expect(isKnownPageType(type)).toBe(true);
      const component = await loadPageComponent(type);
      expect(typeof component).toBe('function');
      expect(getLoadedPageComponent(type)).toBe(component);
    }
  });

  it('rejects a type it does not know', async () => {
    expect(isKnownPageType('HolidayBrochurePage')).toBe(false);
    await expect(loadPageComponent('HolidayBrochurePage')).rejects.toBeInstanceOf(UnknownPageTypeError);
  });

  it('renders a standard page from its content: heading, intro and blocks', async () => {
    await loadPageComponent('StandardPageTemplate');
    renderWithRoot(<PageView page={page('/help/accessibility')} />);
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Accessibility statement' }, { timeout: 3000 }),
    ).toBeInTheDocument();
    expect(screen.getByText('We want everyone to be able to use this website.')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'Using this website' })).toBeInTheDocument();
    expect(screen.queryByText(/not available online yet/)).not.toBeInTheDocument();
    // The title is set in an effect, which may run just after the heading shows.
    await waitFor(() => expect(document.title).toBe('Accessibility statement – Meridian Mutual'));
  });

  it('shows an error state for a page whose type the registry does not know', async () => {
    const strange = { ...page('/help/privacy'), type: 'HolidayBrochurePage' } as unknown as Parameters<
      typeof PageView
    >[0]['page'];
    renderWithRoot(<PageView page={strange} />);
    expect(
      await screen.findByRole('heading', { level: 1, name: 'This page cannot be shown' }, { timeout: 3000 }),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '0800 765 4321' })).toBeInTheDocument();
    // The tab says so too, not the title of a page it cannot show.
    await waitFor(() => expect(document.title).toBe('This page cannot be shown – Meridian Mutual'));
  });

  it('names the tab after what a page shows when a part of it names its own, and gives the title back', async () => {
    function Narrower() {
      useDocumentTitle('Your policies');
      return <p>All of them</p>;
    }
    function PolicyPage({ page: content }: { page: { heading: string } }) {
      const [narrow, setNarrow] = useState(true);
      return (
        <>
          <h1>{content.heading}</h1>
          {narrow && <Narrower />}
          <button type="button" onClick={() => setNarrow(false)}>
            One policy
          </button>
        </>
      );
    }
    registerPageType('PolicyPage', async () => ({ default: PolicyPage }));
    await loadPageComponent('PolicyPage');
    renderWithRoot(<PageView page={page('/account/policies')} />);
    expect(await screen.findByText('All of them', undefined, { timeout: 3000 })).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('Your policies – Meridian Mutual'));
    await userEvent.click(screen.getByRole('button', { name: 'One policy' }));
    await waitFor(() => expect(document.title).toBe('Your policy – Meridian Mutual'));
  });

  it('lets a feature register the component of its page type', async () => {
    registerPageType('DashboardPage', async () => ({
      default: ({ page: content }) => <h1>Welcome to {content.heading}</h1>,
    }));
    await loadPageComponent('DashboardPage');
    renderWithRoot(<PageView page={page('/account/dashboard')} />);
    expect(
      await screen.findByRole('heading', { name: 'Welcome to Your dashboard' }, { timeout: 3000 }),
    ).toBeInTheDocument();
  });

  it('gives up on a page chunk that has not arrived after 120 seconds', async () => {
    vi.useFakeTimers();
    registerPageType('ConfirmationPage', () => new Promise(() => undefined));
    const loading = loadPageComponent('ConfirmationPage');
    const outcome = expect(loading).rejects.toBeInstanceOf(ChunkLoadTimeoutError);
    await vi.advanceTimersByTimeAsync(CHUNK_LOAD_TIMEOUT_MS);
    await outcome;
    expect(CHUNK_LOAD_TIMEOUT_MS).toBe(120_000);
  });
});
