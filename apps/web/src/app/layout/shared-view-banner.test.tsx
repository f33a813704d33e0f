import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { setTokensInMemory } from '../../session/token-store';
import { sessionKeys, removeSession, writeSession } from '../../session/storage-keys';
import { testAccessToken } from '../../test/fake-api/identity-scenario';
import { renderWithRoot } from '../../test/render-with-root';
import { SharedViewBanner } from './shared-view-banner';

const tokens = (onBehalfOf: string) => ({
  access_token: testAccessToken({ customerId: 'C1000001', onBehalfOf }),
  expires_at: Math.floor(Date.now() / 1000) + 600,
});

describe('the read-only view banner', () => {
  afterEach(() => {
    setTokensInMemory(null);
    removeSession(sessionKeys.sharedView);
  });

  it('says whose account it is and that it is read only, with a way to close it', async () => {
    writeSession(
      sessionKeys.sharedView,
      JSON.stringify({ customerName: 'Margaret Thompson', staffName: 'Alex Morgan' }),
    );
    setTokensInMemory(tokens('staff:00u-alex'));
    renderWithRoot(<SharedViewBanner />);
    const banner = await screen.findByRole('region', { name: 'Read-only view' });
    expect(banner).toHaveTextContent('Viewing as Margaret Thompson, read only');
    expect(screen.getByRole('button', { name: 'Close this view' })).toBeEnabled();
  });

  it('is not there for the customer themselves', async () => {
    setTokensInMemory(tokens('C1000001'));
    renderWithRoot(<SharedViewBanner />);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(screen.queryByRole('region', { name: 'Read-only view' })).toBeNull();
  });
});
