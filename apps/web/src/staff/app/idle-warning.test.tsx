import { getStaffSessionCall, getStaffSessionStatusCall } from '@portal/contracts/staff';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { callsTo, fakeApi, fakeCall } from '../../test/fake-api/fake-api';
import { renderConsole, sessionOf, staffOf } from '../testing/console';

describe('the idle warning', () => {
  it('warns two minutes before the session ends, and staying asks the server, which restarts it', async () => {
    const { user } = renderConsole('/', { session: sessionOf(staffOf.agent, { idleSeconds: 100 }) });
    const dialog = await screen.findByRole('alertdialog', { name: 'You will be signed out soon' });
    expect(dialog).toHaveAccessibleDescription(/we will sign you out in 1 minute and (39|40) seconds/);
    fakeApi.use(fakeCall(getStaffSessionCall, () => ({ status: 200, body: sessionOf(staffOf.agent) })));
    const reads = callsTo(getStaffSessionCall).length;
    await user.click(within(dialog).getByRole('button', { name: 'Stay signed in' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(callsTo(getStaffSessionCall).length).toBe(reads + 1);
  });

  it('goes to sign in when the idle time is up and the server says the session has ended', async () => {
    fakeApi.use(
      fakeCall(getStaffSessionCall, () => ({
        status: 200,
        body: sessionOf(staffOf.agent, { idleSeconds: 1 }),
      })),
      fakeCall(getStaffSessionStatusCall, () => ({ status: 401 })),
    );
    const { left } = renderConsole('/', { answerSession: false });
    await waitFor(() => expect(left).toEqual([`/staff/sign-in?returnTo=${encodeURIComponent('/staff/')}`]), {
      timeout: 5000,
    });
    // The check is the status call, which keeps nothing alive; the session was read once, at the start.
    expect(callsTo(getStaffSessionStatusCall)).toHaveLength(1);
    expect(callsTo(getStaffSessionCall)).toHaveLength(1);
  });
});
