import type { CallToAction } from '@portal/contracts/content';
import { callToAction } from '@portal/contracts/content';
import { endCurrentSessionCall } from '@portal/contracts/session';
import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { registerNavigator } from '../lib/app-navigation';
import { setPageInit } from '../lib/page-init';
import { setAuthenticated } from '../session/session-store';
import { makeSettings, testPageInit } from '../test/content-fixtures';
import { callsTo } from '../test/fake-api/fake-api';
import { identityScenario } from '../test/fake-api/identity-scenario';
import { renderWithRoot } from '../test/render-with-root';
import { CallToActionButton, CallToActionList } from './call-to-action';

const cta = (input: Partial<CallToAction> & { text: string }): CallToAction => callToAction.parse(input);

let unregister: (() => void) | undefined;
afterEach(() => {
  unregister?.();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('calls to action by link type (spec customer-data §4)', () => {
  it('submit submits the form it is in', async () => {
    const submitted = vi.fn((event: { preventDefault: () => void }) => event.preventDefault());
    renderWithRoot(
      <form onSubmit={submitted} aria-label="Contact">
        <CallToActionButton cta={cta({ text: 'Send', linkType: 'submit' })} />
      </form>,
    );
    const button = await screen.findByRole('button', { name: 'Send' });
    expect(button).toHaveAttribute('type', 'submit');
    await userEvent.click(button);
    expect(submitted).toHaveBeenCalledTimes(1);
  });

  it('Close closes the modal it is in, and is not offered where there is nothing to close', async () => {
    const onClose = vi.fn();
    const { unmount } = renderWithRoot(
      <CallToActionList items={[cta({ text: 'No, stay signed in', linkType: 'Close' })]} onClose={onClose} />,
    );
    await userEvent.click(await screen.findByRole('button', { name: 'No, stay signed in' }));
    expect(onClose).toHaveBeenCalledTimes(1);
    unmount();

    renderWithRoot(
      <>
        <p>Nothing to close</p>
        <CallToActionButton cta={cta({ text: 'Close', linkType: 'Close' })} />
      </>,
    );
    await screen.findByText('Nothing to close');
    expect(screen.queryByRole('button', { name: 'Close' })).not.toBeInTheDocument();
  });

  it('Logout closes the modal and signs out to the sign-in page of settings', async () => {
    identityScenario();
    setPageInit(testPageInit);
    const visited: string[] = [];
    unregister = registerNavigator({
      navigate: (to) => visited.push(to),
      currentPath: () => '/account/dashboard',
    });
    setAuthenticated(true);
    const onClose = vi.fn();
    renderWithRoot(
      <CallToActionButton cta={cta({ text: 'Yes, sign out', linkType: 'Logout' })} onClose={onClose} />,
      { settings: makeSettings({ loginPage: '/login' }) },
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Yes, sign out' }));
    expect(onClose).toHaveBeenCalledTimes(1);
    await act(() => vi.waitFor(() => expect(sessionStorage.getItem('authenticated')).toBe('0')));
    expect(visited).toEqual(['/login']);
    expect(callsTo(endCurrentSessionCall)).not.toHaveLength(0);
  });

  it.each(['Default', 'primaryFunctional'] as const)(
    '%s with a site path or a full address on this site moves inside the app',
    async (linkType) => {
      const { router } = renderWithRoot(
        <>
          <CallToActionButton
            cta={cta({ text: 'Your bills', link: '/account/bills-and-payments', linkType })}
          />
          <CallToActionButton
            cta={{
              ...cta({ text: 'Your dashboard', linkType }),
              // This site's own full address (https in service; the test page's origin here).
              link: `${window.location.origin}/account/dashboard?tab=1`,
            }}
          />
        </>,
        { path: '/account/policies' },
      );
      const full = await screen.findByRole('link', { name: 'Your dashboard' });
      expect(full).toHaveAttribute('href', '/account/dashboard?tab=1');
      expect(full).not.toHaveAttribute('target');
      await userEvent.click(full);
      expect(router.state.location.pathname).toBe('/account/dashboard');
      expect(router.state.location.search).toBe('?tab=1');

      await userEvent.click(screen.getByRole('link', { name: 'Your bills' }));
      expect(router.state.location.pathname).toBe('/account/bills-and-payments');
    },
  );

  it('leaves for another site in the same tab, or opens a new tab for opensIn NewTab', async () => {
    renderWithRoot(
      <>
        <CallToActionButton cta={cta({ text: 'Find an office', link: 'https://maps.example/office' })} />
        <CallToActionButton
          cta={cta({ text: 'Read our guide', link: 'https://guides.example/home', opensIn: 'NewTab' })}
        />
        <CallToActionButton
          cta={cta({
            text: 'Your dashboard',
            link: '/account/dashboard',
            opensIn: 'NewTab',
            style: 'secondary',
          })}
        />
        <CallToActionButton cta={cta({ text: 'Nowhere', link: '' })} />
      </>,
    );
    const away = await screen.findByRole('link', { name: 'Find an office' });
    expect(away).toHaveAttribute('href', 'https://maps.example/office');
    expect(away).not.toHaveAttribute('target');

    const guide = screen.getByRole('link', { name: 'Read our guide (opens in a new tab)' });
    expect(guide).toHaveAttribute('target', '_blank');
    expect(guide).toHaveAttribute('rel', 'noopener noreferrer');
    // A site path asked to open in a new tab is a real link to a new tab, not a router move.
    const ownNewTab = screen.getByRole('link', { name: 'Your dashboard (opens in a new tab)' });
    expect(ownNewTab).toHaveAttribute('target', '_blank');
    expect(ownNewTab).toHaveClass('button', 'button--secondary');
    // Without a link, a Default call to action offers nothing.
    expect(screen.queryByText('Nowhere')).not.toBeInTheDocument();
  });

  it('shows the short mobile label beside the full text for CSS to choose', async () => {
    renderWithRoot(
      <CallToActionButton
        cta={cta({ text: 'Call us free on 0800 123 4567', mobileLabel: 'Call us', link: 'tel:08001234567' })}
      />,
    );
    const link = await screen.findByRole('link');
    expect(link).toHaveAttribute('href', 'tel:08001234567');
    expect(link.querySelector('.cta__full')).toHaveTextContent('Call us free on 0800 123 4567');
    expect(link.querySelector('.cta__short')).toHaveTextContent('Call us');
  });
});
