import type { BlockOf } from '@portal/contracts/content';
import { createShareCodeCall } from '@portal/contracts/screen-share';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import content from '../../../../../../content/pages/profile-login-security.json';
import { setAccessTokenProvider } from '../../../lib/api-client';
import { setTokensInMemory } from '../../../session/token-store';
import { callsTo, fakeApi, fakeCall } from '../../../test/fake-api/fake-api';
import { testAccessToken } from '../../../test/fake-api/identity-scenario';
import { renderWithRoot } from '../../../test/render-with-root';
import { signedInAs } from '../../../test/signed-in';
import ScreenShareBlock from './screen-share';

const block = content.blocks.find((b) => b.type === 'screenShare') as unknown as BlockOf<'screenShare'>;

describe('share your screen with us', () => {
  let signOut: (() => void) | undefined;
  afterEach(() => signOut?.());

  it('gets a code, shows it in two groups with when it stops working, and announces it where the focus goes', async () => {
    signOut = signedInAs('C1000001');
    let n = 0;
    fakeApi.use(
      fakeCall(createShareCodeCall, () => ({
        status: 201,
        body: { code: n++ === 0 ? '482913' : '105577', expiresAt: '2026-12-07T14:32:00Z' },
      })),
    );
    const user = userEvent.setup();
    renderWithRoot(<ScreenShareBlock block={block} />);
    const region = await screen.findByRole('region', { name: 'Share your screen with us' });
    await user.click(within(region).getByRole('button', { name: 'Get a code' }));
    const digits = await within(region).findByText('482 913');
    expect(digits).toHaveAccessibleName('4 8 2 9 1 3');
    expect(within(region).getByText(/It works once, until 2:32pm\./)).toBeVisible();
    await waitFor(() => expect(digits.closest('[aria-live="polite"]')).toHaveFocus());
    // A new code replaces it.
    await user.click(within(region).getByRole('button', { name: 'Get a new code' }));
    expect(await within(region).findByText('105 577')).toBeVisible();
    expect(within(region).queryByText('482 913')).toBeNull();
    expect(callsTo(createShareCodeCall)).toHaveLength(2);
  });

  it('says when too many codes were asked for, or when one could not be made', async () => {
    signOut = signedInAs('C1000001');
    let tooMany = true;
    fakeApi.use(
      fakeCall(createShareCodeCall, () =>
        tooMany
          ? {
              status: 429,
              body: { code: 'TOO_MANY_REQUESTS', message: 'Wait', correlationId: 'c-1' },
              headers: { 'Retry-After': '600' },
            }
          : { status: 503 },
      ),
    );
    const user = userEvent.setup();
    renderWithRoot(<ScreenShareBlock block={block} />);
    const region = await screen.findByRole('region', { name: 'Share your screen with us' });
    await user.click(within(region).getByRole('button', { name: 'Get a code' }));
    expect(await within(region).findByText(/You have asked for a lot of codes/)).toBeVisible();
    tooMany = false;
    await user.click(within(region).getByRole('button', { name: 'Get a code' }));
    expect(await within(region).findByText(/Sorry, we could not make a code/)).toBeVisible();
  });

  it('is not offered in the contact centre’s read-only view', async () => {
    const token = testAccessToken({ customerId: 'C1000001', onBehalfOf: 'staff:00u-alex' });
    setTokensInMemory({ access_token: token, expires_at: Math.floor(Date.now() / 1000) + 600 });
    setAccessTokenProvider(() => Promise.resolve(token));
    signOut = () => {
      setTokensInMemory(null);
      setAccessTokenProvider(undefined);
    };
    renderWithRoot(<ScreenShareBlock block={block} />);
    // As long as the block takes to show for a customer (the tests above).
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(screen.queryByRole('region', { name: 'Share your screen with us' })).toBeNull();
  });
});
