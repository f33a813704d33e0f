import { pageContent, type PageOf } from '@portal/contracts/content';
import { render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import flagDefinitions from '../../../../../content/feature-flags.json';
import loginContent from '../../../../../content/pages/login.json';
import { ExperimentBlocks } from './experiment-blocks';
import { getFeatureValue, getFlagsStatus, initFeatureFlags, resetFeatureFlags } from './feature-flags';

const apiHost = 'http://portal.test/content-svc';
const login = pageContent.parse(loginContent) as PageOf<'LoginPage'>;

function serveDefinitions(definitions: unknown, status = 200) {
  const requests: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      requests.push(String(input));
      return new Response(JSON.stringify(definitions), {
        status,
        headers: { 'Content-Type': 'application/json' },
      });
    }),
  );
  return requests;
}

/** The definitions with every visitor put in one variation, so the test knows what the SDK must pick. */
function allIn(variation: 'control' | 'reassurance') {
  const feature = flagDefinitions.features['login-intro-variant'];
  return {
    features: {
      'login-intro-variant': {
        ...feature,
        rules: feature.rules.map((r) => ({ ...r, weights: variation === 'control' ? [1, 0] : [0, 1] })),
      },
    },
  };
}

const renderSlot = () =>
  render(
    <ExperimentBlocks
      experiments={login.experiments}
      slot="beforeBlocks"
      renderBlocks={(blocks) =>
        blocks.map((b) => <p key={b.id}>{b.type === 'richText' ? b.html.replace(/<[^>]+>/g, '') : ''}</p>)
      }
    />,
  );

afterEach(() => {
  resetFeatureFlags();
  vi.unstubAllGlobals();
  delete window.dataLayer;
});

describe('feature flags', () => {
  it('loads the definitions with the SDK key from the api host and buckets by a persistent experiment user id', async () => {
    const requests = serveDefinitions(allIn('reassurance'));
    expect(await initFeatureFlags({ sdkKey: 'sdk-portal-local', apiHost })).toBe('ready');
    expect(requests).toEqual([`${apiHost}/api/features/sdk-portal-local`]);
    const userId = localStorage.getItem('experimentUserId');
    expect(userId).toMatch(/^[0-9a-f-]{36}$/);
    expect(getFeatureValue('login-intro-variant', 'none')).toBe('reassurance');
    expect(getFeatureValue('not-a-flag', 'fallback')).toBe('fallback');
    // The experiment exposure goes to the data layer, by ids only.
    expect(window.dataLayer).toContainEqual({
      event: 'experimentViewed',
      experimentId: 'login-intro-variant',
      variationId: 'reassurance',
    });
  });

  it('keeps the same user in the same variant across visits', async () => {
    serveDefinitions(flagDefinitions);
    await initFeatureFlags({ sdkKey: 'k', apiHost });
    const first = getFeatureValue('login-intro-variant', 'none');
    expect(['control', 'reassurance']).toContain(first);
    resetFeatureFlags();
    await initFeatureFlags({ sdkKey: 'k', apiHost });
    expect(getFeatureValue('login-intro-variant', 'none')).toBe(first);
  });

  it('renders the variant the SDK assigns, once the definitions have arrived', async () => {
    serveDefinitions(allIn('reassurance'));
    const starting = initFeatureFlags({ sdkKey: 'k', apiHost });
    renderSlot();
    await starting;
    expect(await screen.findByText(/we may send a security code to your phone/)).toBeInTheDocument();
    expect(document.querySelector('[data-experiment="login-intro-variant"]')).toHaveAttribute(
      'data-variant',
      'reassurance',
    );
  });

  it('shows the control when the definitions cannot be loaded', async () => {
    serveDefinitions({ code: 'NOT_FOUND' }, 404);
    const starting = initFeatureFlags({ sdkKey: 'unknown', apiHost });
    renderSlot();
    await starting;
    await waitFor(() => expect(getFlagsStatus()).toBe('failed'));
    expect(document.querySelector('[data-experiment="login-intro-variant"]')).toHaveAttribute(
      'data-variant',
      'control',
    );
    expect(screen.queryByText(/we may send a security code/)).not.toBeInTheDocument();
  });

  it('shows the control when flags were never started', () => {
    renderSlot();
    expect(document.querySelector('[data-experiment]')).toHaveAttribute('data-variant', 'control');
  });
});
