import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  getContentByRelativeUrlCall,
  getFeatureDefinitionsCall,
  getNavigationCall,
  getSiteSettingsCall,
  type PageContentInput,
} from '@portal/contracts/content';
import { endCurrentSessionCall } from '@portal/contracts/session';
import { loadPageComponent, registerPageType } from './page-registry';
import { getFlagsStatus, resetFeatureFlags } from '../lib/feature-flags/feature-flags';
import { registerNavigator } from '../lib/app-navigation';
import { setPageInit } from '../lib/page-init';
import { makeSettings, pageInputs, testPageInit } from '../test/content-fixtures';
import { contentScenario, type ContentScenarioOptions } from '../test/fake-api/content-scenario';
import { callsTo, fakeApi, fakeCall } from '../test/fake-api/fake-api';
import { oktaError } from '../test/fake-api/identity-scenario';
import { signOut } from '../session/sign-out';
import { App } from './app';
import { appRoutes, routerNavigator } from './router';

let unregister: (() => void) | undefined;

function renderApp(path: string, options: ContentScenarioOptions = {}) {
  contentScenario(options);
  // signIn() below sets the flag only: the provider holds no session to end, and answers so.
  fakeApi.use(
    fakeCall(endCurrentSessionCall, () => ({ status: 404, body: oktaError('E0000007', 'Not found') })),
  );
  setPageInit(testPageInit);
  const router = createMemoryRouter(appRoutes(), { initialEntries: [path] });
  unregister = registerNavigator(routerNavigator(router));
  render(<App router={router} />);
  return { router, user: userEvent.setup() };
}

const signIn = () => sessionStorage.setItem('authenticated', '1');
const heading = (name: string | RegExp) =>
  screen.findByRole('heading', { level: 1, name }, { timeout: 3000 });

afterEach(() => {
  unregister?.();
  vi.restoreAllMocks();
});

describe('routes', () => {
  it('sends / to /login and shows the page content names there', async () => {
    const { router } = renderApp('/');
    expect(await heading('Sign in to your account')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    // The title is set in an effect, which may run just after the heading shows.
    await waitFor(() => expect(document.title).toBe('Sign in to your account – Meridian Mutual'));
  });

  it('renders any other path through the content service', async () => {
    renderApp('/help/accessibility');
    expect(await heading('Accessibility statement')).toBeInTheDocument();
    const queries = (call: Parameters<typeof callsTo>[0]) => callsTo(call).map((c) => c.query.toString());
    expect(queries(getContentByRelativeUrlCall)).toContain('relativeUrl=%2Fhelp%2Faccessibility');
    expect(queries(getSiteSettingsCall)).toContain('type=SiteSettings');
    expect(queries(getNavigationCall)).toContain('');
  });

  it('asks for the error-context settings when the page URL has error=true', async () => {
    renderApp('/help/privacy?error=true');
    await heading('Privacy notice');
    expect(callsTo(getSiteSettingsCall).map((c) => c.query.toString())).toContain(
      'type=SiteSettings&error=true',
    );
  });

  it('shows a plain "Page not found" page, with ways on, for a path content does not have', async () => {
    renderApp('/no/such/page');
    expect(await heading('Page not found')).toBeInTheDocument();
    const main = screen.getByRole('main');
    expect(within(main).getByRole('link', { name: 'sign in to your account' })).toHaveAttribute(
      'href',
      '/login',
    );
    expect(within(main).getByRole('link', { name: 'read our help and questions' })).toHaveAttribute(
      'href',
      '/help/faqs',
    );
    expect(within(main).getByRole('link', { name: '0800 765 4321' })).toHaveAttribute(
      'href',
      'tel:08007654321',
    );
    expect(screen.queryByRole('navigation', { name: 'Breadcrumb' })).not.toBeInTheDocument();
    // The title is set in an effect, which may run just after the heading shows.
    await waitFor(() => expect(document.title).toBe('Page not found – Meridian Mutual'));
  });

  it('follows a redirect page to another site path', async () => {
    const { router } = renderApp('/old-privacy', {
      pages: {
        '/old-privacy': {
          ...pageInputs['/help/privacy']!,
          url: '/old-privacy',
          type: 'RedirectPage',
          target: '/help/privacy',
        },
      },
    });
    expect(await heading('Privacy notice')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/help/privacy');
  });
});

describe('layout', () => {
  it('has skip links to the content, the menu and the footer, first on the page, each leading somewhere', async () => {
    renderApp('/help/accessibility');
    await heading('Accessibility statement');
    const links = screen.getAllByRole('link');
    // A visitor has no main menu: on a narrow screen (no matchMedia here) the menu is behind its button.
    expect(links.slice(0, 3).map((l) => [l.textContent, l.getAttribute('href')])).toEqual([
      ['Skip to main content', '#main-content'],
      ['Skip to menu', '#menu-toggle'],
      ['Skip to footer', '#footer'],
    ]);
    for (const link of links.slice(0, 3)) {
      expect(document.getElementById(link.getAttribute('href')!.slice(1))).toBeInTheDocument();
    }
    expect(screen.getByRole('main')).toHaveAttribute('id', 'main-content');
    expect(screen.getByRole('contentinfo')).toHaveAttribute('id', 'footer');
  });

  it('shows utility links and footer links from the navigation call to a visitor, but not the main menu', async () => {
    renderApp('/help/accessibility');
    await heading('Accessibility statement');
    const utility = screen.getAllByRole('navigation', { name: 'Account menu' })[0]!;
    expect(
      within(utility)
        .getAllByRole('link')
        .map((l) => l.textContent),
    ).toEqual(['Help', 'Sign in']);
    expect(within(utility).queryByRole('button', { name: 'Sign out' })).not.toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Main menu' })).not.toBeInTheDocument();
    const footer = screen.getByRole('navigation', { name: 'Footer links' });
    expect(
      within(footer)
        .getAllByRole('link')
        .map((l) => [l.textContent, l.getAttribute('href')]),
    ).toEqual([
      ['Accessibility', '/help/accessibility'],
      ['Privacy notice', '/help/privacy'],
    ]);
  });

  it('shows breadcrumbs for a page more than one level down', async () => {
    renderApp('/help/accessibility');
    await heading('Accessibility statement');
    const crumbs = screen.getByRole('navigation', { name: 'Breadcrumb' });
    expect(within(crumbs).getByRole('link', { name: 'Help' })).toHaveAttribute('href', '/help');
    expect(within(crumbs).getByText('Accessibility')).toHaveAttribute('aria-current', 'page');
  });

  it('gives a signed-in customer the main menu and ends the utility links with a sign-out button', async () => {
    signIn();
    renderApp('/profile/login-security');
    await heading('Update your password');
    const main = screen.getByRole('navigation', { name: 'Main menu' });
    expect(within(main).getByRole('link', { name: 'Dashboard' })).toHaveAttribute(
      'href',
      '/account/dashboard',
    );
    const utility = screen.getAllByRole('navigation', { name: 'Account menu' })[0]!;
    const items = within(utility).getAllByRole('listitem');
    expect(items.map((i) => i.textContent)).toEqual(['Help', 'Sign out']);
    expect(within(items[1]!).getByRole('button', { name: 'Sign out' })).toBeInTheDocument();
    const crumbs = screen.getByRole('navigation', { name: 'Breadcrumb' });
    expect(
      within(crumbs)
        .getAllByRole('listitem')
        .map((i) => i.textContent),
    ).toEqual(['Dashboard', 'Update your password']);
  });

  it('opens a menu section behind a disclosure button', async () => {
    signIn();
    const { user } = renderApp('/account/dashboard');
    await heading(/Your dashboard$/);
    const toggle = screen.getByRole('button', { name: 'Your details' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('link', { name: 'Personal details' })).not.toBeInTheDocument();
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('link', { name: 'Personal details' })).toHaveAttribute(
      'href',
      '/profile/personal-details',
    );
    await user.keyboard('{Escape}');
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(toggle).toHaveFocus();
  });

  it('has a Menu button that shows and hides the menu on narrow screens', async () => {
    const { user } = renderApp('/help/accessibility');
    await heading('Accessibility statement');
    const button = screen.getByRole('button', { name: 'Menu' });
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(button).toHaveAttribute('aria-controls', 'site-menu');
    await user.click(button);
    expect(button).toHaveAttribute('aria-expanded', 'true');
    expect(button).toHaveAccessibleName('Close menu');
    expect(document.getElementById('site-menu')).toHaveClass('site-menu--open');
  });

  const logOutModalWindowBlock = {
    id: 'log-out-modal',
    heading: 'Are you sure you want to sign out?',
    bodyText: '<p>You will need your email address and password to sign in again.</p>',
    closeLabel: 'Close and stay signed in',
    primaryCallsToAction: [{ text: 'Yes, sign out', linkType: 'Logout' as const }],
    secondaryCallsToAction: [
      { text: 'No, stay signed in', linkType: 'Close' as const, style: 'secondary' as const },
    ],
  };

  it('signs out from the header after the logout modal: session cleared, back on the login page', async () => {
    signIn();
    sessionStorage.setItem('redirect_url', 'L3g=');
    const { user, router } = renderApp('/account/dashboard', { settings: { logOutModalWindowBlock } });
    await heading(/Your dashboard$/);
    await user.click(screen.getAllByRole('button', { name: 'Sign out' })[0]!);
    const dialog = await screen.findByRole('dialog', { name: 'Are you sure you want to sign out?' });
    expect(dialog).toHaveTextContent('You will need your email address and password to sign in again.');
    // Nothing happens until the customer confirms.
    expect(sessionStorage.getItem('authenticated')).toBe('1');
    await user.click(within(dialog).getByRole('button', { name: 'Yes, sign out' }));
    expect(await heading('Sign in to your account')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(sessionStorage.getItem('authenticated')).toBe('0');
    expect(sessionStorage.getItem('redirect_url')).toBeNull();
    expect(screen.queryByRole('navigation', { name: 'Main menu' })).not.toBeInTheDocument();
  });

  it('keeps the customer signed in when the logout modal is closed, with focus back on Sign out', async () => {
    signIn();
    const { user, router } = renderApp('/account/dashboard', { settings: { logOutModalWindowBlock } });
    await heading(/Your dashboard$/);
    const signOutButton = screen.getAllByRole('button', { name: 'Sign out' })[0]!;
    await user.click(signOutButton);
    const dialog = await screen.findByRole('dialog', { name: 'Are you sure you want to sign out?' });
    await waitFor(() => expect(dialog).toHaveFocus());
    await user.click(within(dialog).getByRole('button', { name: 'No, stay signed in' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(signOutButton).toHaveFocus();

    // Escape and the close (X) button keep the customer signed in too.
    await user.click(signOutButton);
    const again = await screen.findByRole('dialog', { name: 'Are you sure you want to sign out?' });
    await waitFor(() => expect(again).toHaveFocus());
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await user.click(signOutButton);
    await user.click(await screen.findByRole('button', { name: 'Close and stay signed in' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(sessionStorage.getItem('authenticated')).toBe('1');
    expect(router.state.location.pathname).toBe('/account/dashboard');
  });

  it('does not ask with the logout modal when the session ends by inactivity', async () => {
    signIn();
    const { router } = renderApp('/account/dashboard', { settings: { logOutModalWindowBlock } });
    await heading(/Your dashboard$/);
    // What the inactivity modal does when its countdown reaches zero.
    await act(() => signOut({ reason: 'idle' }));
    expect(await heading('Sign in to your account')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('shows the service alert when its visible flag is set, and not otherwise', async () => {
    renderApp('/help/accessibility', {
      settings: {
        serviceAlert: { visible: true, title: 'Planned maintenance', message: '<p>Sunday 1am to 5am.</p>' },
      },
    });
    await heading('Accessibility statement');
    const alert = screen.getByRole('region', { name: 'Planned maintenance' });
    expect(alert).toHaveTextContent('Sunday 1am to 5am.');
  });

  it('keeps the service alert hidden when its flag is off', async () => {
    renderApp('/help/accessibility');
    await heading('Accessibility statement');
    expect(screen.queryByRole('region', { name: 'Planned maintenance' })).not.toBeInTheDocument();
  });

  it('still shows the page, skip links and footer when navigation fails', async () => {
    renderApp('/help/accessibility', { navigation: 'fail' });
    expect(await heading('Accessibility statement')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Skip to footer' })).toBeInTheDocument();
    expect(screen.getByRole('contentinfo')).toBeInTheDocument();
  });

  it('on a route change scrolls to the top, focuses the new heading and announces the title', async () => {
    const scrollTo = vi.spyOn(window, 'scrollTo');
    const { user } = renderApp('/help/accessibility');
    await heading('Accessibility statement');
    await user.click(screen.getByRole('link', { name: 'Privacy notice' }));
    const h1 = await heading('Privacy notice');
    await waitFor(() => expect(h1).toHaveFocus());
    expect(scrollTo).toHaveBeenCalledWith({ top: 0, left: 0 });
    expect(screen.getByTestId('route-announcer')).toHaveTextContent('Privacy notice – Meridian Mutual');
    // The title is set in an effect, which may run just after the heading shows.
    await waitFor(() => expect(document.title).toBe('Privacy notice – Meridian Mutual'));
  });
});

describe('sign-in guards', () => {
  it('sends a visitor from a sign-in-only page to the login page, keeping a policy address for later', async () => {
    const { router } = renderApp('/account/policies?id=123X4567890');
    expect(await heading('Sign in to your account')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(sessionStorage.getItem('redirectAfterLogin')).toBe('/account/policies?id=123X4567890');
  });

  it('does not keep the address of other sign-in-only pages', async () => {
    renderApp('/account/dashboard');
    await heading('Sign in to your account');
    expect(sessionStorage.getItem('redirectAfterLogin')).toBeNull();
  });

  it('sends a signed-in customer from the login page to the dashboard', async () => {
    signIn();
    const { router } = renderApp('/login');
    expect(await heading(/Your dashboard$/)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/account/dashboard');
  });
});

describe('failures', () => {
  it('shows the full-page fallback with the exact texts when site settings fail', async () => {
    renderApp('/help/accessibility', { settings: 'fail' });
    expect(await heading('Something went wrong')).toBeInTheDocument();
    expect(
      screen.getByText("Sorry, there's been an unexpected technical problem. We're working to fix it."),
    ).toBeInTheDocument();
    expect(
      screen.getByText("Please use your browser's refresh button and try again later."),
    ).toBeInTheDocument();
    expect(screen.getByText(/If you need help urgently, call us free on/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '0800 123 4567' })).toHaveAttribute('href', 'tel:08001234567');
    expect(screen.queryByRole('navigation', { name: 'Footer links' })).not.toBeInTheDocument();
  });

  it('goes to the error page from content when a page fails to load, keeping the path for later', async () => {
    const { router } = renderApp('/help/privacy', { pages: { '/help/privacy': 'fail' } });
    expect(await heading('Something went wrong')).toBeInTheDocument();
    expect(screen.getByText('Sorry, there is a problem with the service.')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/error');
    expect(sessionStorage.getItem('redirectAfterLogin')).toBe('/help/privacy');
  });

  it('sends the cover and documents pages to the start instead', async () => {
    const { router } = renderApp('/account/policies/cover?id=1', {
      pages: { '/account/policies/cover': 'fail' },
    });
    expect(await heading('Sign in to your account')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
  });

  it('shows a built-in error page when the error page content fails too', async () => {
    renderApp('/error', { pages: { '/error': 'fail' } });
    expect(await heading('Something went wrong')).toBeInTheDocument();
    expect(
      screen.getByText("Please use your browser's refresh button and try again later."),
    ).toBeInTheDocument();
    expect(within(screen.getByRole('main')).getByRole('link', { name: '0800 765 4321' })).toBeInTheDocument();
    expect(screen.getByRole('contentinfo')).toBeInTheDocument();
  });

  it('shows "Unexpected Application Error!" when a page crashes, with a way back', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    registerPageType('ConfirmationPage', async () => ({
      default: () => {
        throw new Error('render failed');
      },
    }));
    try {
      renderApp('/broken', {
        pages: { '/broken': { ...pageInputs['/help/privacy']!, url: '/broken', type: 'ConfirmationPage' } },
      });
      expect(await heading('Unexpected Application Error!')).toBeInTheDocument();
      expect(screen.getByRole('link', { name: 'Try again' })).toHaveAttribute('href', '/broken');
      expect(screen.getByRole('link', { name: 'Go to the start page' })).toHaveAttribute('href', '/');
      expect(screen.getByRole('contentinfo')).toBeInTheDocument();
    } finally {
      registerPageType('ConfirmationPage', () => import('../content/pages/standard-page-template'));
      await loadPageComponent('ConfirmationPage');
    }
  });
});

describe('maintenance', () => {
  it('shows the maintenance page on every path when settings say the site is in maintenance', async () => {
    renderApp('/help/accessibility', { settings: { isMaintenanceMode: true } });
    expect(await heading('Sorry, the service is unavailable')).toBeInTheDocument();
    expect(screen.queryByText('Accessibility statement')).not.toBeInTheDocument();
  });

  it('shows the maintenance page for a page content marks as in maintenance', async () => {
    renderApp('/help/privacy', {
      pages: { '/help/privacy': { ...pageInputs['/help/privacy']!, isMaintenanceMode: true } },
    });
    expect(await heading('Sorry, the service is unavailable')).toBeInTheDocument();
  });
});

describe('loader', () => {
  it('shows the full-page loader while a slow page loads', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const { router } = renderApp('/help/accessibility');
      await heading('Accessibility statement');
      let release: () => void = () => undefined;
      // The privacy page's content waits for release(), then is answered as before.
      fakeApi.use(
        fakeCall(getContentByRelativeUrlCall, async ({ query }) => {
          if (query.get('relativeUrl')?.includes('privacy')) await new Promise<void>((r) => (release = r));
          return undefined;
        }),
      );
      act(() => void router.navigate('/help/privacy'));
      await act(async () => void (await vi.advanceTimersByTimeAsync(300)));
      expect(screen.getByRole('status')).toHaveTextContent(
        "Thank you for being patient. We're just loading your details.",
      );
      await act(async () => release());
      await heading('Privacy notice');
      await act(async () => void (await vi.advanceTimersByTimeAsync(1000)));
      expect(screen.getByRole('status')).toBeEmptyDOMElement();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('feature flags', () => {
  afterEach(() => resetFeatureFlags());

  it('are loaded only for a page that runs an experiment, which then shows its variant from the start', async () => {
    const trial: PageContentInput = {
      ...pageInputs['/help/privacy']!,
      id: 'page-help-trial',
      url: '/help/trial',
      meta: { title: 'Trial' },
      heading: 'Trial page',
      experiments: [
        {
          key: 'help-intro',
          slot: 'beforeBlocks',
          variants: [
            { id: 'a', weight: 0.5, blocks: [{ id: 'a1', type: 'richText', html: '<p>Variant A</p>' }] },
            { id: 'b', weight: 0.5, blocks: [{ id: 'b1', type: 'richText', html: '<p>Variant B</p>' }] },
          ],
        },
      ],
    };
    const { router } = renderApp('/help/privacy', {
      pages: { '/help/trial': trial },
      features: { features: { 'help-intro': { defaultValue: 'b' } } },
    });
    const flagCalls = () => callsTo(getFeatureDefinitionsCall);
    await heading('Privacy notice');
    expect(flagCalls()).toHaveLength(0);
    expect(getFlagsStatus()).toBe('idle');

    await act(() => router.navigate('/help/trial'));
    expect(await heading('Trial page')).toBeInTheDocument();
    // The page waited for the flags: the assigned variant is there at once, the control never showed.
    expect(screen.getByText('Variant B')).toBeInTheDocument();
    expect(screen.queryByText('Variant A')).not.toBeInTheDocument();
    expect(flagCalls()).toHaveLength(1);
  });
});

describe('fixtures', () => {
  it('parse with the contract', () => {
    expect(makeSettings().siteName).toBe('Meridian Mutual');
  });
});
