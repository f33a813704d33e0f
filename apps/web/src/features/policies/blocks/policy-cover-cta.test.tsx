import type { BlockOf } from '@portal/contracts/content';
import { getPolicyCall, type Policy } from '@portal/contracts/policy';
import { QueryClientProvider } from '@tanstack/react-query';
import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createQueryClient } from '../../../session/query-client';
import { fakeApi, fakeCall } from '../../../test/fake-api/fake-api';
import { renderWithRoot } from '../../../test/render-with-root';
import { signedInAs } from '../../../test/signed-in';
import { testPolicy } from '../../../test/policy-fixtures';
import PolicyCoverCallToActionBlock from './policy-cover-cta';

const block = {
  id: 'cover-cta',
  type: 'policyCoverCallToAction',
  onlineRenewal: {
    heading: 'Check your renewal',
    body: '<p>Your renewal is ready to view online.</p>',
    callsToAction: [
      {
        text: 'View your renewal',
        linkType: 'GuidewireViewRenewal',
        opensIn: 'NewTab',
        showInterstitial: false,
      },
    ],
  },
  standard: {
    heading: 'Is your cover still right?',
    body: '<p>Tell us about changes.</p>',
    callsToAction: [
      {
        text: 'Request a change',
        linkType: 'GuidewireRequestAChange',
        opensIn: 'SameTab',
        showInterstitial: false,
      },
    ],
  },
} as BlockOf<'policyCoverCallToAction'>;

const renewalActions = (enabled: boolean) => ({
  ...testPolicy().policyActions,
  onlineViewRenewal: { enabled, url: enabled ? 'https://policy.example/view-renewal/1' : null },
});

function show(policy: Policy, content: BlockOf<'policyCoverCallToAction'> = block) {
  fakeApi.use(fakeCall(getPolicyCall, () => ({ status: 200, body: policy })));
  renderWithRoot(
    <QueryClientProvider client={createQueryClient()}>
      <PolicyCoverCallToActionBlock block={content} />
    </QueryClientProvider>,
    { path: `/account/policies/cover?id=${policy.policyNumber}` },
  );
}

describe('policy cover call to action (spec customer-data §2, §9)', () => {
  let signOut: () => void;
  beforeEach(() => {
    signOut = signedInAs('C1000007');
  });
  afterEach(() => signOut());

  it.each(['NGH', 'NGB'])('offers an online view of an %s renewal when enabled', async (productType) => {
    show(testPolicy({ productType, status: 'Renewing', policyActions: renewalActions(true) }));
    expect(await screen.findByRole('heading', { name: 'Check your renewal' })).toBeInTheDocument();
    const link = screen.getByRole('link', { name: /^View your renewal/ });
    expect(link).toHaveAttribute('href', 'https://policy.example/view-renewal/1');
    expect(link).toHaveAttribute('target', '_blank');
  });

  it('gives the standard call to action to an NGB renewal without online viewing enabled', async () => {
    show(
      testPolicy({
        productType: 'NGB',
        status: 'RenewalCustomerReady',
        policyActions: renewalActions(false),
      }),
    );
    expect(await screen.findByRole('heading', { name: 'Is your cover still right?' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /View your renewal/ })).not.toBeInTheDocument();
  });

  it('gives the standard call to action to other products’ renewals, even with the flag set', async () => {
    show(testPolicy({ productType: 'PHL', status: 'Renewing', policyActions: renewalActions(true) }));
    expect(await screen.findByRole('heading', { name: 'Is your cover still right?' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /^Request a change/ })).toHaveAttribute(
      'href',
      'https://policy.example/request-a-change?policy=123X4567890',
    );
  });

  describe('worded by the policy’s status and flags (the overview page’s boxes)', () => {
    const overview = {
      ...block,
      standard: {
        heading: 'Need to change something?',
        body: '<p>You can make some changes online, such as updating your address.</p>',
        callsToAction: [
          {
            text: 'Make a change online',
            linkType: 'GuidewireMTA',
            opensIn: 'NewTab',
            showInterstitial: false,
            link: '',
            style: 'primary',
          },
          {
            text: 'Request a change',
            linkType: 'GuidewireRequestAChange',
            opensIn: 'NewTab',
            showInterstitial: false,
            link: '',
            style: 'primary',
          },
        ],
      },
      noOnlineChanges: {
        heading: 'Need to change something?',
        body: '<p>This policy cannot be changed online.</p>',
        callsToAction: [
          {
            text: 'Request a change',
            linkType: 'GuidewireRequestAChange',
            opensIn: 'NewTab',
            showInterstitial: false,
            link: '',
            style: 'primary',
          },
        ],
      },
      expired: { heading: 'This policy has ended', body: '<p>It cannot be changed.</p>', callsToAction: [] },
    } as BlockOf<'policyCoverCallToAction'>;

    it('offers a change online to a policy in force that allows it', async () => {
      show(testPolicy(), overview);
      expect(await screen.findByText(/You can make some changes online/)).toBeInTheDocument();
      expect(screen.getByRole('link', { name: /^Make a change online/ })).toBeInTheDocument();
    });

    it('offers no change, and no words about one, to an expired policy', async () => {
      show(testPolicy({ status: 'Expired' }), overview);
      expect(await screen.findByRole('heading', { name: 'This policy has ended' })).toBeInTheDocument();
      expect(screen.queryByText(/changes online/)).not.toBeInTheDocument();
      expect(screen.queryByRole('link', { name: /Make a change online/ })).not.toBeInTheDocument();
      expect(screen.queryByRole('link', { name: /Request a change/ })).not.toBeInTheDocument();
    });

    it('says a migration renewal without online changes cannot be changed online, and offers a request', async () => {
      show(testPolicy({ status: 'Renewing', isMigrationRenewal: true, allowMTA: false }), overview);
      expect(await screen.findByText('This policy cannot be changed online.')).toBeInTheDocument();
      expect(screen.queryByText(/You can make some changes online/)).not.toBeInTheDocument();
      expect(screen.queryByRole('link', { name: /Make a change online/ })).not.toBeInTheDocument();
      expect(screen.getByRole('link', { name: /^Request a change/ })).toBeInTheDocument();
    });
  });
});
