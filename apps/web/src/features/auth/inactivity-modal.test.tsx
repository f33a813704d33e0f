import { act, screen, within } from '@testing-library/react';
import { endCurrentSessionCall } from '@portal/contracts/session';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { registerNavigator } from '../../lib/app-navigation';
import { setPageInit } from '../../lib/page-init';
import { setAuthenticated } from '../../session/session-store';
import { makeSettings, testPageInit } from '../../test/content-fixtures';
import { callsTo } from '../../test/fake-api/fake-api';
import { identityScenario } from '../../test/fake-api/identity-scenario';
import { renderWithRoot } from '../../test/render-with-root';
import { InactivityModal } from './inactivity-modal';

const idleModal = {
  heading: 'Are you still there?',
  bodyText: 'We will sign you out in {seconds} seconds.',
  staySignedInText: 'Stay signed in',
  signOutText: 'Sign out now',
};
let visited: string[];

beforeEach(() => {
  vi.useFakeTimers();
  identityScenario();
  setPageInit(testPageInit);
  visited = [];
  registerNavigator({ navigate: (to) => visited.push(to), currentPath: () => '/account/dashboard' });
});
afterEach(() => {
  vi.useRealTimers();
});

async function renderModal(idleTimeoutMinutes: number, idleCountdownSeconds = 60) {
  renderWithRoot(<InactivityModal />, {
    settings: makeSettings({ idleTimeoutMinutes, idleCountdownSeconds, idleModal }),
  });
  await act(() => vi.advanceTimersByTimeAsync(10));
}

/** The computer sleeps: the wall clock moves on, timers (which count only waking time) do not. */
function sleep(ms: number) {
  vi.setSystemTime(Date.now() + ms);
}

/** Moves time a second at a time, as a real page lives it. */
async function advance(ms: number) {
  for (let left = ms; left > 0; left -= 1000) {
    await act(() => vi.advanceTimersByTimeAsync(Math.min(1000, left)));
  }
}

/** Sign-out loads the identity calls on demand (a module import takes real time), then clears the session. */
async function signedOut() {
  await act(() => vi.waitFor(() => expect(sessionStorage.getItem('authenticated')).toBe('0')));
}

describe('InactivityModal', () => {
  it('warns after the configured idle minutes with a countdown screen readers hear', async () => {
    setAuthenticated(true);
    await renderModal(2, 60);
    await advance(115_000);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await advance(6_000);
    const dialog = screen.getByRole('dialog', { name: 'Are you still there?' });
    expect(dialog).toHaveAccessibleDescription('We will sign you out in 60 seconds.');
    await advance(20_000);
    // Seen every second; heard only at the announce points (every 15 s, then 10 and 5).
    expect(
      within(dialog).getByText(/We will sign you out in (3[5-9]|4[0-5]) seconds\./, {
        selector: '[aria-hidden="true"]',
      }),
    ).toBeInTheDocument();
    expect(
      within(dialog).getByText('We will sign you out in 45 seconds.', { selector: '[aria-live="polite"]' }),
    ).toBeInTheDocument();
  });

  it('reads its countdown once: the countdown is the one live region, the dialog is not one', async () => {
    setAuthenticated(true);
    await renderModal(2, 60);
    await advance(125_000);
    const dialog = screen.getByRole('dialog', { name: 'Are you still there?' });
    expect(dialog).toHaveAccessibleDescription('We will sign you out in 60 seconds.');
    // An alert dialog is itself announced as its content changes: with the countdown's own region, twice.
    const liveRoles = ['alert', 'alertdialog', 'status', 'log', 'marquee', 'timer'];
    const live = [dialog, ...dialog.querySelectorAll<HTMLElement>('*')].filter(
      (el) =>
        liveRoles.includes(el.getAttribute('role') ?? '') ||
        (el.hasAttribute('aria-live') && el.getAttribute('aria-live') !== 'off'),
    );
    expect(live).toHaveLength(1);
    expect(live[0]).toHaveAttribute('aria-live', 'polite');
    expect(live[0]).toHaveTextContent('We will sign you out in 60 seconds.');
  });

  it('resets when the customer chooses to stay', async () => {
    setAuthenticated(true);
    await renderModal(1, 30);
    await advance(61_000);
    await act(async () => {
      screen.getByRole('button', { name: 'Stay signed in' }).click();
    });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await advance(45_000);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(sessionStorage.getItem('authenticated')).toBe('1');
    await advance(20_000);
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });

  it('signs out when the countdown reaches zero', async () => {
    setAuthenticated(true);
    await renderModal(1, 60);
    await advance(65_000);
    expect(screen.getByRole('dialog')).toBeInTheDocument();
    await advance(60_000);
    await signedOut();
    expect(visited).toEqual(['/login']);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    // The provider's session is ended too. Its call's code is imported in real time while the page's clock
    // is the test's, which may pass sign-out's 5 s bound on the provider first: wait for the call.
    await act(() => vi.waitFor(() => expect(callsTo(endCurrentSessionCall)).not.toHaveLength(0)));
  });

  it('signs out at once when the customer chooses to', async () => {
    setAuthenticated(true);
    await renderModal(1, 60);
    await advance(61_000);
    await act(async () => {
      screen.getByRole('button', { name: 'Sign out now' }).click();
    });
    await advance(10);
    await signedOut();
    expect(visited).toEqual(['/login']);
  });

  it('starts watching when the customer signs in while the page is open', async () => {
    await renderModal(1, 60);
    await advance(90_000);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    act(() => setAuthenticated(true));
    await advance(66_000);
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });

  it('stays away when signed out', async () => {
    await renderModal(1, 60);
    await advance(5 * 60_000);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('stays away when idle minutes are zero', async () => {
    setAuthenticated(true);
    await renderModal(0, 60);
    await advance(30 * 60_000);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(sessionStorage.getItem('authenticated')).toBe('1');
  });

  it('warns on waking when the warning fell due while the computer slept, with the time that is left', async () => {
    setAuthenticated(true);
    await renderModal(15, 60);
    await advance(10 * 60_000);
    sleep(5 * 60_000 + 20_000);
    // Within a second of waking, not ten minutes later when the timer would have fired.
    await advance(1_000);
    const dialog = screen.getByRole('dialog', { name: 'Are you still there?' });
    expect(dialog).toHaveAccessibleDescription(/We will sign you out in (39|40) seconds\./);
    await advance(40_000);
    await signedOut();
    expect(visited).toEqual(['/login']);
  });

  it('signs out on waking when the whole countdown passed while the computer slept', async () => {
    setAuthenticated(true);
    await renderModal(15, 60);
    await advance(60_000);
    sleep(3 * 60 * 60_000);
    await advance(1_000);
    await signedOut();
    expect(visited).toEqual(['/login']);
  });

  it('checks at once when the page is shown again', async () => {
    setAuthenticated(true);
    await renderModal(1, 60);
    await advance(30_000);
    sleep(45_000);
    act(() => document.dispatchEvent(new Event('visibilitychange')));
    expect(screen.getByRole('dialog', { name: 'Are you still there?' })).toBeInTheDocument();
  });

  it('keeps this tab alive while the customer is active in another, and closes its warning', async () => {
    setAuthenticated(true);
    await renderModal(1, 60);
    const otherTab = new BroadcastChannel('portal-activity');
    // Opened after this tab's channel, so it hears a message after this tab has.
    const witness = new BroadcastChannel('portal-activity');
    let delivered = 0;
    witness.onmessage = () => (delivered += 1);
    const activeInOtherTab = async () => {
      const before = delivered;
      otherTab.postMessage('active');
      await act(() => vi.waitFor(() => expect(delivered).toBe(before + 1)));
    };
    try {
      for (let i = 0; i < 3; i += 1) {
        await advance(40_000);
        await activeInOtherTab();
      }
      await advance(55_000);
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
      await advance(7_000);
      expect(screen.getByRole('dialog')).toBeInTheDocument();
      await activeInOtherTab();
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
      expect(sessionStorage.getItem('authenticated')).toBe('1');
    } finally {
      otherTab.close();
      witness.close();
    }
  });

  it('tells the other tabs when the customer is active here or stays signed in', async () => {
    setAuthenticated(true);
    await renderModal(1, 60);
    const otherTab = new BroadcastChannel('portal-activity');
    const heard: unknown[] = [];
    otherTab.onmessage = (event: MessageEvent<unknown>) => heard.push(event.data);
    try {
      await advance(2_000);
      act(() => document.dispatchEvent(new KeyboardEvent('keydown', { key: 'a' })));
      await act(() => vi.waitFor(() => expect(heard).toEqual(['active'])));
      await advance(62_000);
      await act(async () => {
        screen.getByRole('button', { name: 'Stay signed in' }).click();
      });
      await act(() => vi.waitFor(() => expect(heard).toEqual(['active', 'active'])));
    } finally {
      otherTab.close();
    }
  });

  it('starts again when the page stays after its unload was abandoned', async () => {
    setAuthenticated(true);
    await renderModal(1, 60);
    await advance(30_000);
    // The idle timer stops itself here; the page is then kept (unload cancelled, or back-forward cache).
    act(() => window.dispatchEvent(new Event('beforeunload')));
    await advance(59_000);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await advance(3_000);
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });
});
