import { describe, expect, it } from 'vitest';
import {
  agency,
  customerPolicyParams,
  listPoliciesCall,
  policy,
  policyList,
  policyListQuery,
  policyNumber,
  policyNumberInput,
  policySummary,
  quote,
  quoteList,
  type Policy,
} from './policy';

const homePolicy: Policy = {
  policyNumber: '102X4567891',
  productName: 'Home Insurance',
  productType: 'PHL',
  apiProductType: 'home',
  policyType: 'Home Insurance',
  status: 'Active',
  startDate: '2026-03-01',
  renewalDate: '2027-03-01',
  annualPremium: { visible: true, value: 612.4 },
  paymentFrequency: 'Monthly',
  policyHolders: [
    { name: 'Mrs Margaret Thompson', primary: true },
    { name: 'Mr Alan Thompson', primary: false },
  ],
  vehicleReg: [],
  lineOfBusinessTypes: ['Home', 'Valuables'],
  linesOfBusiness: [
    {
      type: 'Home',
      coverLevel: 'Buildings and contents',
      risks: [
        {
          displayName: 'Bluebell Cottage, 12 Church Lane',
          registration: null,
          covers: [{ type: 'Buildings' }, { type: 'Contents' }, { type: 'AccidentalDamage' }],
        },
      ],
      valuables: [],
      bicycles: [{ description: 'Raleigh touring bicycle', value: { visible: true, value: 850 } }],
    },
    {
      type: 'Valuables',
      coverLevel: null,
      risks: [],
      valuables: [
        {
          category: 'Jewellery',
          description: 'Diamond engagement ring',
          value: { visible: true, value: 4200 },
          replacementCost: 4500,
          type: 'Ring',
          make: null,
          artType: null,
          collectionType: null,
          singleItemLimit: 5000,
          sumInsured: 15000,
        },
        {
          category: 'FineArt',
          description: 'Watercolour of the Malvern Hills',
          value: { visible: false, value: 0 },
          replacementCost: null,
          type: null,
          make: null,
          artType: 'Watercolour',
          collectionType: 'Paintings',
          singleItemLimit: null,
          sumInsured: null,
        },
      ],
      bicycles: [],
    },
  ],
  isMigrationRenewal: false,
  allowMTA: true,
  policyActions: {
    onlineMidTermAdjustment: { url: 'https://policies.example.co.uk/mta/102X4567891' },
    onlineViewRenewal: { enabled: false, url: null },
    bespokeRequestAChange: { url: 'https://policies.example.co.uk/change/102X4567891' },
  },
};

const { linesOfBusiness: _lines, ...homeSummary } = homePolicy;
const motorSummary = {
  ...homeSummary,
  policyNumber: '102Q45678912',
  productName: 'Motor Insurance',
  productType: 'MPC',
  apiProductType: 'motor',
  policyType: 'Motor Insurance',
  vehicleReg: ['AB12 CDE'],
  lineOfBusinessTypes: ['Motor'],
};

describe('policy number (spec section 5)', () => {
  it.each(['102X4567891', '102Q45678912', '102P45678912', '000X0000000', '507P87654321'])(
    'accepts %s',
    (n) => {
      expect(policyNumber.safeParse(n).success).toBe(true);
    },
  );

  it.each([
    ['102X456789', 'X with six digits (10 characters)'],
    ['102X45678912', 'X with eight digits'],
    ['102Q4567891', 'Q with seven digits'],
    ['102P456789123', 'P with nine digits (13 characters)'],
    ['102Z4567891', 'a letter other than X, Q or P'],
    ['12X45678911', 'two leading digits'],
    ['1024X567891', 'letter in the wrong place'],
    ['ABCX1234567', 'letters where digits belong'],
    ['102x4567891', 'lower-case x'],
    [' 102X4567891', 'a leading space'],
    ['102X4567891\n', 'a trailing newline'],
    ['', 'empty'],
  ])('refuses %j (%s)', (n) => {
    expect(policyNumber.safeParse(n).success).toBe(false);
  });

  it('tidies what a customer types before applying the same rule', () => {
    expect(policyNumberInput.parse(' 102x4567891 ')).toBe('102X4567891');
    expect(policyNumberInput.parse('507p87654321')).toBe('507P87654321');
    expect(policyNumberInput.safeParse('102 X 4567891').success).toBe(false);
  });

  it('is the rule for policy ids in paths', () => {
    expect(customerPolicyParams.safeParse({ customerId: 'C1000001', policyId: '102X4567891' }).success).toBe(
      true,
    );
    expect(
      customerPolicyParams.safeParse({ customerId: 'C1000001', policyId: '102X4567891.pdf' }).success,
    ).toBe(false);
  });
});

describe('policy', () => {
  it('accepts a full home policy with valuables, fine art and a bicycle', () => {
    expect(policy.parse(homePolicy)).toEqual(homePolicy);
  });

  it('accepts a motor policy with registrations', () => {
    const motor = {
      ...motorSummary,
      linesOfBusiness: [
        {
          type: 'Motor',
          coverLevel: 'Comprehensive',
          risks: [{ displayName: 'Volvo V60', registration: 'AB12 CDE', covers: [{ type: 'Windscreen' }] }],
          valuables: [],
          bicycles: [],
        },
      ],
    };
    expect(policy.safeParse(motor).success).toBe(true);
  });

  it('refuses an unknown status, a bad date and a script link', () => {
    expect(policy.safeParse({ ...homePolicy, status: 'Lapsed' }).success).toBe(false);
    expect(policy.safeParse({ ...homePolicy, renewalDate: '01/03/2027' }).success).toBe(false);
    const scripted = {
      ...homePolicy,
      policyActions: { ...homePolicy.policyActions, bespokeRequestAChange: { url: 'javascript:alert(1)' } },
    };
    expect(policy.safeParse(scripted).success).toBe(false);
  });

  it('summaries drop the lines of business', () => {
    const parsed = policySummary.parse(homePolicy);
    expect(parsed).not.toHaveProperty('linesOfBusiness');
    expect(parsed.policyNumber).toBe('102X4567891');
  });
});

describe('policy list', () => {
  const list = {
    active: [homeSummary, motorSummary],
    renewing: [{ ...homeSummary, policyNumber: '204X7654321', status: 'Renewing' }],
    upcoming: [],
    expired: [],
    currentPage: 1,
    lastPage: 1,
    totalRecords: 3,
  };

  it('accepts policies grouped by status', () => {
    expect(policyList.safeParse(list).success).toBe(true);
    expect(
      policyList.safeParse({
        ...list,
        renewing: [{ ...homeSummary, status: 'RenewalCustomerReady' }],
        upcoming: [{ ...homeSummary, status: 'Upcoming' }],
        expired: [{ ...homeSummary, status: 'Expired' }],
      }).success,
    ).toBe(true);
  });

  it('refuses a policy in the wrong group, naming where', () => {
    const result = policyList.safeParse({ ...list, expired: [homeSummary] });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['expired', 0, 'status']);
  });

  it('pages from 1', () => {
    expect(policyListQuery.parse({})).toEqual({ page: 1 });
    expect(policyListQuery.parse({ page: '2' })).toEqual({ page: 2 });
    expect(policyListQuery.safeParse({ page: '0' }).success).toBe(false);
  });

  it('is a customer call needing a token', () => {
    expect(listPoliciesCall).toMatchObject({ method: 'GET', path: '/api/v1/policy/:customerId', auth: true });
  });
});

describe('quotes', () => {
  const q = {
    quoteNumber: '305Q11223344',
    productType: 'PHL',
    startDate: '2026-09-01',
    documents: { documentSummaries: [{ id: 'QD-1', name: 'Your quote' }] },
    quoteActions: { onlineQuoteAndBuy: { enabled: true, url: 'https://quotes.example.co.uk/305Q11223344' } },
  };

  it('accepts a quote list, empty or not', () => {
    expect(quoteList.safeParse([q]).success).toBe(true);
    expect(quoteList.safeParse([]).success).toBe(true);
  });

  it('refuses a quote without its actions or with a bad number', () => {
    const { quoteActions: _a, ...noActions } = q;
    expect(quote.safeParse(noActions).success).toBe(false);
    expect(quote.safeParse({ ...q, quoteNumber: 'Q-1' }).success).toBe(false);
  });
});

describe('agency', () => {
  const mutualDirect = {
    name: 'Mutual Direct',
    url: 'https://www.example.co.uk/contact',
    telephoneNumber: '0800 000 0000',
    address: 'Tiddington Road, Stratford-upon-Avon, CV37 7BJ',
    latitude: 52.1916,
    longitude: -1.6853,
    mutualDirectTelephonesOpen: '08:00',
    mutualDirectTelephonesClose: '20:00',
  };

  it('accepts an agency with or without direct-line hours', () => {
    expect(agency.safeParse(mutualDirect).success).toBe(true);
    expect(
      agency.safeParse({
        ...mutualDirect,
        name: 'Ledbury Agency',
        url: null,
        mutualDirectTelephonesOpen: null,
        mutualDirectTelephonesClose: null,
      }).success,
    ).toBe(true);
  });

  it('refuses coordinates off the globe and times that are not HH:MM', () => {
    expect(agency.safeParse({ ...mutualDirect, latitude: 91 }).success).toBe(false);
    expect(agency.safeParse({ ...mutualDirect, longitude: -181 }).success).toBe(false);
    expect(agency.safeParse({ ...mutualDirect, mutualDirectTelephonesOpen: '8am' }).success).toBe(false);
    expect(agency.safeParse({ ...mutualDirect, mutualDirectTelephonesClose: '24:00' }).success).toBe(false);
  });
});
