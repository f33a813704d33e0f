import { listAccountActivityCall, type ActivityItem } from '@portal/contracts/account-activity';
import type { BlockOf } from '@portal/contracts/content';
import { QueryClientProvider } from '@tanstack/react-query';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import pageJson from '../../../../../../content/pages/profile-account-activity.json';
import { createQueryClient } from '../../../session/query-client';
import { fakeApi, fakeCall } from '../../../test/fake-api/fake-api';
import { renderWithRoot } from '../../../test/render-with-root';
import { signedInAs } from '../../../test/signed-in';
import AccountActivityBlock from './account-activity';

// The block as content has it: every sentence the screen shows is the real content's.
const block = pageJson.blocks[0] as unknown as BlockOf<'accountActivity'>;

function render() {
  return renderWithRoot(
    <QueryClientProvider client={createQueryClient()}>
      <AccountActivityBlock block={block} />
    </QueryClientProvider>,
    { path: '/profile/account-activity' },
  );
}

// Summer time: 27 June 2026 09:05 UTC is 10:05am in the UK; 22:30 UTC is 11:30pm, still the 27th, and
// 23:30 UTC is already 28 June in the UK.
const newest: ActivityItem[] = [
  { at: '2026-06-27T23:30:00.000Z', kind: 'marketing-choice', channels: ['email', 'post'] },
  { at: '2026-06-27T22:30:00.000Z', kind: 'signed-in', method: 'text', browser: 'Firefox on Linux' },
  { at: '2026-06-27T22:29:00.000Z', kind: 'code-sent', method: 'text', destination: '+44 XXXX XXX555' },
  { at: '2026-06-27T09:05:00.000Z', kind: 'paperless-choice', paperless: true },
];
const older: ActivityItem[] = [
  { at: '2026-06-27T08:00:00.000Z', kind: 'sign-in-wrong-password' },
  { at: '2026-03-02T15:00:00.000Z', kind: 'contact-message-sent', about: 'PHL' },
  { at: '2026-03-01T12:00:00.000Z', kind: 'marketing-choice', channels: [] },
  { at: '2026-02-01T12:00:00.000Z', kind: 'account-locked', until: '2026-02-01T12:30:00.000Z' },
];

describe('account activity block', () => {
  let signOut: () => void;
  beforeEach(() => {
    signOut = signedInAs('C1000015');
  });
  afterEach(() => {
    signOut();
    vi.restoreAllMocks();
  });

  it('groups the items by UK day, in UK time and plain words, and shows older ones on request', async () => {
    const cursors: Array<string | null> = [];
    fakeApi.use(
      fakeCall(listAccountActivityCall, ({ query }) => {
        const cursor = query.get('cursor');
        cursors.push(cursor);
        return {
          status: 200,
          body:
            cursor === 'page-2'
              ? { items: older, nextCursor: null }
              : { items: newest, nextCursor: 'page-2' },
        };
      }),
    );
    render();
    expect(await screen.findByText('Loading your account activity…')).toBeInTheDocument();

    const sunday = await screen.findByRole('heading', { name: 'Sunday 28 June 2026', level: 2 });
    const saturday = screen.getByRole('heading', { name: 'Saturday 27 June 2026', level: 2 });
    const sundayList = sunday.nextElementSibling as HTMLElement;
    expect(within(sundayList).getAllByRole('listitem')).toHaveLength(1);
    expect(sundayList).toHaveTextContent(
      'At 12:30amYou saved your marketing choicesYou chose: email and post',
    );

    const saturdayItems = within(saturday.nextElementSibling as HTMLElement).getAllByRole('listitem');
    expect(saturdayItems.map((li) => li.textContent)).toEqual([
      'At 11:30pmYou signed inWith text messageOn Firefox on Linux',
      'At 11:29pmWe sent you a security codeBy text message to +44 XXXX XXX555',
      'At 10:05amYou chose how we send your documentsYou chose: paperless, by email',
    ]);
    expect(within(saturdayItems[0]!).getByText('11:30pm').closest('time')).toHaveAttribute(
      'dateTime',
      '2026-06-27T22:30:00.000Z',
    );
    expect(screen.queryByText('There is no older activity.')).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Show older activity' }));
    // The first older item joins Saturday's list, and takes focus; how many were added is announced.
    const wrong = await screen.findByText('Someone tried to sign in with the wrong password');
    await vi.waitFor(() => expect(wrong.closest('li')).toHaveFocus());
    expect(screen.getByText('4 older items shown')).toBeInTheDocument();
    expect(cursors).toEqual([null, 'page-2']);
    expect(screen.getAllByRole('heading', { name: 'Saturday 27 June 2026' })).toHaveLength(1);
    expect(screen.getByText('About home insurance')).toBeInTheDocument();
    expect(screen.getByText('You chose: no marketing')).toBeInTheDocument();
    // Winter time: 12:30 UTC is 12:30pm in the UK.
    expect(screen.getByText('Locked until 12:30pm on Sunday 1 February 2026')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Show older activity' })).not.toBeInTheDocument();
    expect(screen.getByText('There is no older activity.')).toBeInTheDocument();
  });

  it('says so when the activity cannot be read, and when there is none yet', async () => {
    fakeApi.use(fakeCall(listAccountActivityCall, () => ({ status: 503 })));
    const { unmount } = render();
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Sorry, we cannot show your account activity at the moment.',
    );
    unmount();

    fakeApi.use(
      fakeCall(listAccountActivityCall, () => ({ status: 200, body: { items: [], nextCursor: null } })),
    );
    render();
    expect(await screen.findByText('There is no activity to show yet.')).toBeInTheDocument();
  });

  it('keeps the items shown when an older page cannot be read, and says so under them', async () => {
    fakeApi.use(
      fakeCall(listAccountActivityCall, ({ query }) =>
        query.get('cursor')
          ? { status: 500 }
          : { status: 200, body: { items: newest, nextCursor: 'page-2' } },
      ),
    );
    render();
    await screen.findByRole('heading', { name: 'Saturday 27 June 2026' });
    const button = screen.getByRole('button', { name: 'Show older activity' });
    await userEvent.click(button);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Sorry, we cannot show your account activity at the moment.',
    );
    expect(screen.getByText('You signed in')).toBeInTheDocument();
    expect(button).toHaveFocus();
  });
});
