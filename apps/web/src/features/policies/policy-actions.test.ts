import type { CallToAction } from '@portal/contracts/content';
import { describe, expect, it } from 'vitest';
import { callToActionBoxFor, helpApplies, policyActionLink, usesOnlineViewRenewal } from './policy-actions';
import { findPolicy } from './policy-groups';
import { premiumText } from './blocks/policy-details';
import { testPolicy } from '../../test/policy-fixtures';

const policy = testPolicy;

const cta = (linkType: CallToAction['linkType']): CallToAction =>
  ({ text: 'Go', linkType, opensIn: 'NewTab', showInterstitial: true, style: 'primary' }) as CallToAction;

describe('policy-system links of a policy (spec §4 link types)', () => {
  it('takes the policy’s own addresses, request a change with the bespoke interstitial', () => {
    expect(policyActionLink(cta('GuidewireMTA'), policy())).toEqual({
      href: 'https://policy.example/mta?policy=123X4567890',
      bespoke: false,
    });
    expect(policyActionLink(cta('GuidewireRequestAChange'), policy())).toEqual({
      href: 'https://policy.example/request-a-change?policy=123X4567890',
      bespoke: true,
    });
  });

  it('offers no online change when the policy does not allow it, and no renewal unless enabled', () => {
    expect(policyActionLink(cta('GuidewireMTA'), policy({ allowMTA: false }))).toBeNull();
    expect(policyActionLink(cta('GuidewireViewRenewal'), policy())).toBeNull();
    const renewal = policy({
      productType: 'NGH',
      status: 'RenewalCustomerReady',
      policyActions: {
        ...policy().policyActions,
        onlineViewRenewal: { enabled: true, url: 'https://policy.example/r' },
      },
    });
    expect(policyActionLink(cta('GuidewireViewRenewal'), renewal)?.href).toBe('https://policy.example/r');
  });

  it('views NGH and NGB renewals online, only when enabled, and no other product or status (spec §9)', () => {
    const enabled = {
      ...policy().policyActions,
      onlineViewRenewal: { enabled: true, url: 'https://x.example/r' },
    };
    const off = { ...policy().policyActions, onlineViewRenewal: { enabled: false, url: null } };
    for (const productType of ['NGH', 'NGB'])
      for (const status of ['Renewing', 'RenewalCustomerReady'] as const) {
        expect(usesOnlineViewRenewal(policy({ productType, status, policyActions: enabled }))).toBe(true);
        expect(usesOnlineViewRenewal(policy({ productType, status, policyActions: off }))).toBe(false);
      }
    for (const productType of ['PHL', 'PAH', 'PHR', 'MPC'])
      expect(usesOnlineViewRenewal(policy({ productType, status: 'Renewing', policyActions: enabled }))).toBe(
        false,
      );
    for (const status of ['Active', 'Upcoming', 'Expired'] as const)
      expect(usesOnlineViewRenewal(policy({ productType: 'NGB', status, policyActions: enabled }))).toBe(
        false,
      );
  });

  it('offers neither a change online nor a request to change an expired policy', () => {
    expect(policyActionLink(cta('GuidewireMTA'), policy({ status: 'Expired' }))).toBeNull();
    expect(policyActionLink(cta('GuidewireRequestAChange'), policy({ status: 'Expired' }))).toBeNull();
  });

  it('words the actions by status and flags: expired, renewal online, no online changes, standard', () => {
    const renewalOnline = {
      ...policy().policyActions,
      onlineViewRenewal: { enabled: true, url: 'https://x.example/r' },
    };
    expect(callToActionBoxFor(policy({ status: 'Expired' }))).toBe('expired');
    expect(
      callToActionBoxFor(policy({ productType: 'NGH', status: 'Renewing', policyActions: renewalOnline })),
    ).toBe('onlineRenewal');
    expect(
      callToActionBoxFor(policy({ status: 'Renewing', isMigrationRenewal: true, allowMTA: false })),
    ).toBe('noOnlineChanges');
    expect(callToActionBoxFor(policy())).toBe('standard');
    expect(callToActionBoxFor(policy({ status: 'Upcoming' }))).toBe('standard');
  });

  it('leaves other link types to content', () => {
    expect(policyActionLink(cta('Default'), policy())).toBeUndefined();
  });
});

describe('policy contextual help filters (spec §5)', () => {
  it('filters by allowMTA, display filter and product types', () => {
    expect(helpApplies({ allowMTA: true, displayFilter: 'Enabled' }, policy())).toBe(true);
    expect(helpApplies({ allowMTA: true, displayFilter: 'Enabled' }, policy({ allowMTA: false }))).toBe(
      false,
    );
    expect(helpApplies({ allowMTA: false, displayFilter: 'Disabled' }, policy({ allowMTA: false }))).toBe(
      true,
    );
    expect(helpApplies({ displayFilter: 'PolicyRenewalCustomerReady' }, policy())).toBe(false);
    expect(
      helpApplies(
        { displayFilter: 'PolicyRenewalCustomerReady' },
        policy({ status: 'RenewalCustomerReady' }),
      ),
    ).toBe(true);
    expect(helpApplies({ productTypes: ['PAH', 'NGB'] }, policy())).toBe(false);
    expect(helpApplies({ productTypes: ['PAH', 'NGB'] }, policy({ productType: 'NGB' }))).toBe(true);
    expect(helpApplies({}, policy())).toBe(true);
  });

  it('offers no help about changing an expired policy, online or not', () => {
    const expired = (allowMTA: boolean) => policy({ status: 'Expired', allowMTA });
    expect(helpApplies({ allowMTA: true, displayFilter: 'Enabled' }, expired(true))).toBe(false);
    expect(helpApplies({ displayFilter: 'Enabled' }, expired(true))).toBe(false);
    expect(helpApplies({ allowMTA: false, displayFilter: 'Disabled' }, expired(false))).toBe(false);
    expect(helpApplies({ displayFilter: 'Disabled' }, expired(true))).toBe(false);
  });
});

describe('premium (spec §9)', () => {
  it('shows pounds with pence only when there are pence, and 0 as the content text', () => {
    expect(premiumText({ visible: true, value: 412.5 }, 'Refer to your policy document')).toBe('£412.50');
    expect(premiumText({ visible: true, value: 300 }, 'Refer to your policy document')).toBe('£300');
    expect(premiumText({ visible: true, value: 0 }, 'Refer to your policy document')).toBe(
      'Refer to your policy document',
    );
    expect(premiumText({ visible: false, value: 10 }, 'x')).toBeNull();
  });
});

describe('policy redirect lookup (spec §4)', () => {
  it('finds a policy among active, renewing, upcoming and expired, ignoring case', () => {
    const lists = {
      active: [],
      renewing: [policy({ policyNumber: '123X7654321', status: 'Renewing' })],
      upcoming: [],
      expired: [policy({ policyNumber: '507P12345678', status: 'Expired' })],
    };
    expect(findPolicy(lists, '507p12345678')?.status).toBe('Expired');
    expect(findPolicy(lists, '123X7654321')?.status).toBe('Renewing');
    expect(findPolicy(lists, '999X0000000')).toBeUndefined();
  });
});
