/**
 * The demo customers' insurance: policies with their lines of business, quotes, agencies, document packs
 * and notifications. Dates are relative to the day the seed runs, so a fresh database always has
 * renewals due, policies that start soon and policies that have expired. Together the customers show
 * every state of the spec's customer-data area (README, "Demo customers").
 */

type PolicyStatus = 'Active' | 'Upcoming' | 'Expired' | 'Renewing' | 'RenewalCustomerReady';

interface DemoCover {
  type: string;
}
interface DemoRisk {
  displayName: string;
  registration: string | null;
  covers: DemoCover[];
}
interface DemoValuable {
  category: string;
  description: string;
  value: { visible: boolean; value: number };
  replacementCost: number | null;
  type: string | null;
  make: string | null;
  artType: string | null;
  collectionType: string | null;
  singleItemLimit: number | null;
  sumInsured: number | null;
}
interface DemoLine {
  type: string;
  coverLevel: string | null;
  risks: DemoRisk[];
  valuables: DemoValuable[];
  bicycles: Array<{ description: string; value: { visible: boolean; value: number } }>;
}

export interface DemoPolicy {
  policyNumber: string;
  productType: string;
  productName: string;
  apiProductType: string;
  policyType: string;
  status: PolicyStatus;
  startDate: string;
  renewalDate: string;
  annualPremium: number;
  premiumVisible: boolean;
  paymentFrequency: 'Annual' | 'Monthly';
  vehicleReg: string[];
  policyHolders: Array<{ name: string; primary: boolean }>;
  linesOfBusiness: DemoLine[];
  isMigrationRenewal: boolean;
  allowMTA: boolean;
  onlineViewRenewal: boolean;
  agencyId: string | null;
}

interface DemoQuote {
  quoteNumber: string;
  productType: string;
  productName: string;
  startDate: string;
  premium: number;
  onlineQuoteAndBuy: boolean;
}

export interface DemoAgency {
  agencyId: string;
  name: string;
  url: string | null;
  telephoneNumber: string;
  address: string;
  latitude: number;
  longitude: number;
  isMutualDirect: boolean;
  telephonesOpen: string | null;
  telephonesClose: string | null;
}

interface DemoNotification {
  notificationId: string;
  type: 'WELCOME' | 'SPLASH';
  startsAt: string | null;
  endsAt: string | null;
}

interface DemoCustomerPortfolio {
  customerId: string;
  agencyId: string | null;
  policies: DemoPolicy[];
  quotes: DemoQuote[];
  /** Notification ids this customer has (status NEW). */
  notifications: string[];
}

export interface DemoPortfolio {
  agencies: DemoAgency[];
  notifications: DemoNotification[];
  customers: DemoCustomerPortfolio[];
}

const day = 24 * 60 * 60 * 1000;

/** YYYY-MM-DD of `today` moved by whole days (UTC calendar). */
function shift(today: Date, days: number, years = 0): string {
  const d = new Date(Date.UTC(today.getUTCFullYear() + years, today.getUTCMonth(), today.getUTCDate()));
  return new Date(d.getTime() + days * day).toISOString().slice(0, 10);
}

const cover = (...types: string[]): DemoCover[] => types.map((type) => ({ type }));
const item = (
  category: string,
  description: string,
  value: number,
  extra: Partial<DemoValuable> = {},
): DemoValuable => ({
  category,
  description,
  value: { visible: true, value },
  replacementCost: value,
  type: null,
  make: null,
  artType: null,
  collectionType: null,
  singleItemLimit: null,
  sumInsured: null,
  ...extra,
});

const homeLine = (coverLevel: string, bicycles: DemoLine['bicycles'] = []): DemoLine => ({
  type: 'Home',
  coverLevel,
  risks: [
    { displayName: 'Buildings', registration: null, covers: cover('Buildings', 'Accidental damage') },
    { displayName: 'Contents', registration: null, covers: cover('Contents', 'Accidental damage') },
  ],
  valuables: [],
  bicycles,
});

/** 23 items: more than the 20 the cover page shows, so it shows the "see your documents" message. */
const manyValuables: DemoValuable[] = [
  ['Jewellery', 'Diamond solitaire engagement ring', 4200],
  ['Jewellery', 'Pearl necklace, three strand', 1850],
  ['Jewellery', 'Gold charm bracelet', 960],
  ['Jewellery', 'Sapphire and diamond earrings', 2300],
  ['Watches', 'Omega Seamaster wristwatch', 3100],
  ['Watches', 'Longines dress watch', 1450],
  ['Cameras', 'Leica M6 camera with 35mm lens', 2600],
  ['Musical instruments', 'Yamaha silver flute', 1250],
  ['Musical instruments', 'Violin, German, circa 1900', 3800],
  ['Sports equipment', 'Set of golf clubs with bag', 1100],
  ['Jewellery', 'Victorian cameo brooch', 700],
  ['Jewellery', 'Emerald cocktail ring', 2950],
  ['Silverware', 'Georgian silver teapot', 1650],
  ['Silverware', 'Set of twelve silver spoons', 820],
  ['Watches', 'Rolex Oyster Perpetual', 6200],
  ['Jewellery', 'Gold signet ring', 540],
  ['Cameras', 'Nikon Z6 with two lenses', 2100],
  ['Jewellery', 'Tennis bracelet', 3300],
  ['Furs', 'Fox fur stole', 1200],
  ['Jewellery', 'Opal pendant on chain', 780],
  ['Musical instruments', 'Classical guitar', 900],
  ['Jewellery', 'Ruby eternity ring', 2450],
  ['Watches', 'Pocket watch, silver, 1890', 650],
].map(([category, description, value]) => item(String(category), String(description), Number(value)));

/**
 * The direct line of the insurer (Meridian Mutual Direct) and two local agencies: reference data, seeded
 * in production too (db/seed.ts), unlike the demo customers.
 */
export const demoAgencies: DemoAgency[] = [
  {
    agencyId: 'mutual-direct',
    name: 'Meridian Mutual Direct',
    url: 'https://www.meridianmutual.example/contact',
    telephoneNumber: '0800 123 4567',
    address: 'Meridian House, Tiddington Road, Stratford-upon-Avon, CV37 7BJ',
    latitude: 52.1917,
    longitude: -1.6865,
    isMutualDirect: true,
    telephonesOpen: '08:00',
    telephonesClose: '20:00',
  },
  {
    agencyId: 'ledbury',
    name: 'Ledbury and Malvern Agency',
    url: 'https://agents.meridianmutual.example/ledbury',
    telephoneNumber: '01531 630 100',
    address: '14 High Street, Ledbury, Herefordshire, HR8 1DS',
    latitude: 52.0357,
    longitude: -2.4232,
    isMutualDirect: false,
    telephonesOpen: null,
    telephonesClose: null,
  },
  {
    agencyId: 'shrewsbury',
    name: 'Shrewsbury Agency',
    url: null,
    telephoneNumber: '01743 360 200',
    address: '3 Castle Street, Shrewsbury, Shropshire, SY1 2BQ',
    latitude: 52.7085,
    longitude: -2.7526,
    isMutualDirect: false,
    telephonesOpen: null,
    telephonesClose: null,
  },
];

interface PolicyInput {
  policyNumber: string;
  productType: string;
  productName: string;
  apiProductType: string;
  policyType: string;
  status: PolicyStatus;
  /** Days from today to the start date (negative: started that many days ago). */
  startsIn: number;
  annualPremium: number;
  paymentFrequency?: 'Annual' | 'Monthly';
  holders: string[];
  lines: DemoLine[];
  vehicleReg?: string[];
  premiumVisible?: boolean;
  isMigrationRenewal?: boolean;
  allowMTA?: boolean;
  onlineViewRenewal?: boolean;
  agencyId?: string | null;
}

function policy(today: Date, p: PolicyInput): DemoPolicy {
  return {
    policyNumber: p.policyNumber,
    productType: p.productType,
    productName: p.productName,
    apiProductType: p.apiProductType,
    policyType: p.policyType,
    status: p.status,
    startDate: shift(today, p.startsIn),
    // A year of cover: the renewal (expiry) date is the start date a year on.
    renewalDate: shift(today, p.startsIn, 1),
    annualPremium: p.annualPremium,
    premiumVisible: p.premiumVisible ?? true,
    paymentFrequency: p.paymentFrequency ?? 'Annual',
    vehicleReg: p.vehicleReg ?? [],
    policyHolders: p.holders.map((name, i) => ({ name, primary: i === 0 })),
    linesOfBusiness: p.lines,
    isMigrationRenewal: p.isMigrationRenewal ?? false,
    allowMTA: p.allowMTA ?? true,
    onlineViewRenewal: p.onlineViewRenewal ?? false,
    agencyId: p.agencyId ?? null,
  };
}

/** Started this many days ago, so the renewal is due in (365 - n) days. */
const renewalDueIn = (days: number) => days - 365;

export function demoPortfolio(today: Date): DemoPortfolio {
  const motorLine = (vehicles: Array<[string, string]>): DemoLine => ({
    type: 'Motor',
    coverLevel: 'Comprehensive',
    risks: vehicles.map(([displayName, registration]) => ({
      displayName,
      registration,
      covers: cover('Comprehensive', 'Windscreen', 'Courtesy car'),
    })),
    valuables: [],
    bicycles: [],
  });
  const simpleLine = (type: string, coverLevel: string, risk: string, ...covers: string[]): DemoLine => ({
    type,
    coverLevel,
    risks: [{ displayName: risk, registration: null, covers: cover(...covers) }],
    valuables: [],
    bicycles: [],
  });

  const margaret: DemoCustomerPortfolio = {
    customerId: 'C1000001',
    agencyId: 'ledbury',
    notifications: [],
    policies: [
      policy(today, {
        policyNumber: '102X4567891',
        productType: 'PHL',
        productName: 'Home Insurance',
        apiProductType: 'home',
        policyType: 'Home Insurance',
        status: 'Active',
        startsIn: -268,
        annualPremium: 612.4,
        paymentFrequency: 'Monthly',
        holders: ['Mrs Margaret Thompson', 'Mr Geoffrey Thompson'],
        agencyId: 'ledbury',
        lines: [
          {
            type: 'Valuables',
            coverLevel: 'Specified items',
            risks: [
              {
                displayName: 'Valuables',
                registration: null,
                covers: cover('Valuables at home', 'Valuables away from home'),
              },
            ],
            valuables: manyValuables,
            bicycles: [],
          },
          homeLine('Premier', [
            { description: 'Brompton folding bicycle', value: { visible: true, value: 1450 } },
            { description: 'Trek electric hybrid bicycle', value: { visible: true, value: 2800 } },
          ]),
        ],
      }),
      policy(today, {
        policyNumber: '102Q45678912',
        productType: 'MPC',
        productName: 'Motor Insurance',
        apiProductType: 'motor',
        policyType: 'Car Insurance',
        status: 'Active',
        startsIn: -132,
        annualPremium: 389,
        holders: ['Mrs Margaret Thompson'],
        vehicleReg: ['AB12 CDE', 'KX19 LMN'],
        lines: [
          motorLine([
            ['Volvo V60 D4 Momentum', 'AB12 CDE'],
            ['Toyota Yaris Hybrid', 'KX19 LMN'],
          ]),
        ],
      }),
      policy(today, {
        policyNumber: '102Q45678913',
        productType: 'NGH',
        productName: 'Home Insurance',
        apiProductType: 'home',
        policyType: 'Home Insurance',
        status: 'RenewalCustomerReady',
        startsIn: renewalDueIn(16),
        annualPremium: 734.1,
        holders: ['Mrs Margaret Thompson'],
        onlineViewRenewal: true,
        lines: [homeLine('Standard')],
      }),
    ],
    quotes: [
      {
        quoteNumber: '102Q90000001',
        productType: 'PAH',
        productName: 'Valuables Insurance',
        startDate: shift(today, 14),
        premium: 186.5,
        onlineQuoteAndBuy: true,
      },
    ],
  };

  const david: DemoCustomerPortfolio = {
    customerId: 'C1000002',
    agencyId: null,
    notifications: ['splash-summer'],
    policies: [
      policy(today, {
        policyNumber: '204X7654321',
        productType: 'PHR',
        productName: 'Home Insurance',
        apiProductType: 'home',
        policyType: 'Home Insurance',
        status: 'Renewing',
        startsIn: renewalDueIn(9),
        annualPremium: 845.75,
        holders: ['Mr David Okafor'],
        isMigrationRenewal: true,
        allowMTA: false,
        lines: [homeLine('Standard')],
      }),
      policy(today, {
        policyNumber: '204P76543210',
        productType: 'NGB',
        productName: 'Fine Art and Collectables Insurance',
        apiProductType: 'fineArt',
        policyType: 'Fine Art Insurance',
        status: 'Active',
        startsIn: -40,
        annualPremium: 0,
        holders: ['Mr David Okafor'],
        lines: [
          {
            type: 'FineArt',
            coverLevel: 'Collections',
            risks: [
              { displayName: 'Fine art and collectables', registration: null, covers: cover('All risks') },
            ],
            valuables: [
              item('Fine art', 'Oil on canvas, Yorkshire Wolds landscape', 12500, {
                artType: 'Paintings',
                sumInsured: 12500,
              }),
              item('Fine art', 'Bronze hare, limited edition', 4800, {
                artType: 'Sculpture',
                sumInsured: 4800,
              }),
              // An art type the portal has no label for: shown as "Unspecified Other Fine Art".
              item('Fine art', 'Carved netsuke, Meiji period', 2200, { artType: 'NTSK', sumInsured: 2200 }),
              item('Collections', 'Stamp collection, Commonwealth 1937-1952', 6400, {
                collectionType: 'Stamps',
                singleItemLimit: 1500,
                sumInsured: 6400,
              }),
            ],
            bicycles: [],
          },
        ],
      }),
      policy(today, {
        policyNumber: '204X7654300',
        productType: 'PHL',
        productName: 'Home Insurance',
        apiProductType: 'home',
        policyType: 'Home Insurance',
        status: 'Expired',
        startsIn: -500,
        annualPremium: 702.3,
        holders: ['Mr David Okafor'],
        lines: [homeLine('Standard')],
      }),
    ],
    quotes: [
      {
        quoteNumber: '204Q90000002',
        productType: 'MPC',
        productName: 'Motor Insurance',
        startDate: shift(today, 21),
        premium: 512,
        onlineQuoteAndBuy: false,
      },
    ],
  };

  const helen: DemoCustomerPortfolio = {
    customerId: 'C1000007',
    agencyId: 'shrewsbury',
    notifications: ['splash-winter'],
    policies: [
      policy(today, {
        policyNumber: '708X1000001',
        productType: 'PHL',
        productName: 'Home Insurance',
        apiProductType: 'home',
        policyType: 'Home Insurance',
        status: 'Active',
        startsIn: -200,
        annualPremium: 955.6,
        paymentFrequency: 'Monthly',
        holders: ['Mrs Helen Dawson', 'Mr Mark Dawson'],
        agencyId: 'shrewsbury',
        lines: [homeLine('Premier')],
      }),
      policy(today, {
        policyNumber: '708Q10000002',
        productType: 'MPC',
        productName: 'Motor Insurance',
        apiProductType: 'motor',
        policyType: 'Car Insurance',
        status: 'Active',
        startsIn: -90,
        annualPremium: 640.25,
        holders: ['Mrs Helen Dawson'],
        vehicleReg: ['LR70 DAW', 'WV21 HKD', 'SY68 PQR'],
        lines: [
          motorLine([
            ['Land Rover Defender 110', 'LR70 DAW'],
            ['Volkswagen Golf Estate', 'WV21 HKD'],
            ['Mini Cooper', 'SY68 PQR'],
          ]),
        ],
      }),
      policy(today, {
        policyNumber: '708X1000003',
        productType: 'LEX',
        productName: 'Legal Expenses Insurance',
        apiProductType: 'legalExpenses',
        policyType: 'Legal Expenses',
        status: 'Active',
        startsIn: -150,
        annualPremium: 48,
        holders: ['Mrs Helen Dawson'],
        lines: [
          simpleLine(
            'LegalExpenses',
            'Family Legal Protection',
            'Legal expenses',
            'Consumer disputes',
            'Employment disputes',
          ),
        ],
      }),
      policy(today, {
        policyNumber: '708X1000004',
        productType: 'TRV',
        productName: 'Travel Insurance',
        apiProductType: 'travelLegacy',
        policyType: 'Annual Travel',
        status: 'Active',
        startsIn: -60,
        annualPremium: 132.99,
        holders: ['Mrs Helen Dawson', 'Mr Mark Dawson'],
        allowMTA: false,
        lines: [simpleLine('Travel', 'Europe', 'Annual multi-trip', 'Medical expenses', 'Cancellation')],
      }),
      policy(today, {
        policyNumber: '708X1000005',
        productType: 'PAL',
        productName: 'Personal Accident Insurance',
        apiProductType: 'personalAccidentLegacy',
        policyType: 'Personal Accident',
        status: 'Active',
        startsIn: -300,
        annualPremium: 75.5,
        holders: ['Mrs Helen Dawson'],
        allowMTA: false,
        lines: [simpleLine('PersonalAccident', 'Level 2', 'Personal accident', 'Accidental injury')],
      }),
      policy(today, {
        policyNumber: '708Q10000006',
        productType: 'NGB',
        productName: 'Fine Art and Collectables Insurance',
        apiProductType: 'fineArt',
        policyType: 'Fine Art Insurance',
        status: 'Renewing',
        startsIn: renewalDueIn(12),
        annualPremium: 1420,
        holders: ['Mrs Helen Dawson'],
        onlineViewRenewal: true,
        lines: [
          {
            type: 'FineArt',
            coverLevel: 'Collections',
            risks: [{ displayName: 'Fine art', registration: null, covers: cover('All risks') }],
            valuables: [
              item('Fine art', 'Watercolour, Shropshire Hills', 3200, { artType: 'Paintings' }),
              item('Fine art', 'Porcelain figurine pair', 1800, { artType: 'Ceramics' }),
            ],
            bicycles: [],
          },
        ],
      }),
      policy(today, {
        policyNumber: '708X1000007',
        productType: 'PAH',
        productName: 'Valuables Insurance',
        apiProductType: 'valuables',
        policyType: 'Valuables Insurance',
        status: 'Upcoming',
        startsIn: 10,
        annualPremium: 210,
        holders: ['Mrs Helen Dawson'],
        lines: [
          {
            type: 'Valuables',
            coverLevel: 'Specified items',
            risks: [
              { displayName: 'Valuables', registration: null, covers: cover('Valuables away from home') },
            ],
            valuables: manyValuables.slice(0, 5),
            bicycles: [],
          },
        ],
      }),
      policy(today, {
        policyNumber: '708X1000008',
        productType: 'MPC',
        productName: 'Motor Insurance',
        apiProductType: 'motor',
        policyType: 'Car Insurance',
        status: 'Expired',
        startsIn: -420,
        annualPremium: 588,
        holders: ['Mrs Helen Dawson'],
        vehicleReg: ['FD15 XYZ'],
        lines: [motorLine([['Ford Focus Titanium', 'FD15 XYZ']])],
      }),
      policy(today, {
        policyNumber: '708X1000009',
        productType: 'PHR',
        productName: 'Home Insurance',
        apiProductType: 'home',
        policyType: 'Holiday Home Insurance',
        status: 'Expired',
        startsIn: -700,
        annualPremium: 480,
        holders: ['Mrs Helen Dawson'],
        lines: [homeLine('Standard')],
      }),
    ],
    quotes: [
      {
        quoteNumber: '708Q90000003',
        productType: 'PHL',
        productName: 'Home Insurance',
        startDate: shift(today, 30),
        premium: 689.4,
        onlineQuoteAndBuy: true,
      },
      {
        quoteNumber: '708Q90000004',
        productType: 'LEX',
        productName: 'Legal Expenses Insurance',
        startDate: shift(today, 7),
        premium: 52,
        onlineQuoteAndBuy: false,
      },
    ],
  };

  const oneLiner = (
    customerId: string,
    p: Omit<PolicyInput, 'holders' | 'lines'> & { holder: string; lines?: DemoLine[] },
  ): DemoCustomerPortfolio => ({
    customerId,
    agencyId: null,
    notifications: [],
    quotes: [],
    policies: [policy(today, { ...p, holders: [p.holder], lines: p.lines ?? [homeLine('Standard')] })],
  });

  return {
    agencies: demoAgencies,
    notifications: [
      { notificationId: 'welcome', type: 'WELCOME', startsAt: null, endsAt: null },
      {
        notificationId: 'splash-winter',
        type: 'SPLASH',
        startsAt: `${shift(today, -7)}T00:00:00Z`,
        endsAt: `${shift(today, 30)}T00:00:00Z`,
      },
      {
        notificationId: 'splash-summer',
        type: 'SPLASH',
        startsAt: `${shift(today, -150)}T00:00:00Z`,
        endsAt: `${shift(today, -90)}T00:00:00Z`,
      },
    ],
    customers: [
      margaret,
      david,
      oneLiner('C1000003', {
        policyNumber: '305X1122334',
        productType: 'PAH',
        productName: 'Valuables Insurance',
        apiProductType: 'valuables',
        policyType: 'Valuables Insurance',
        status: 'Active',
        startsIn: -188,
        annualPremium: 298.5,
        paymentFrequency: 'Monthly',
        holder: 'Ms Eleanor Hughes',
        lines: [
          {
            type: 'Valuables',
            coverLevel: 'Specified items',
            risks: [
              { displayName: 'Valuables', registration: null, covers: cover('Valuables away from home') },
            ],
            valuables: manyValuables.slice(0, 3),
            bicycles: [],
          },
        ],
      }),
      oneLiner('C1000004', {
        policyNumber: '406Q12345678',
        productType: 'NGH',
        productName: 'Home Insurance',
        apiProductType: 'home',
        policyType: 'Home Insurance',
        status: 'Upcoming',
        startsIn: 7,
        annualPremium: 1024,
        holder: 'Mr Robert Williams',
      }),
      oneLiner('C1000005', {
        policyNumber: '507P87654321',
        productType: 'NGB',
        productName: 'Fine Art and Collectables Insurance',
        apiProductType: 'fineArt',
        policyType: 'Fine Art Insurance',
        status: 'Active',
        startsIn: -323,
        annualPremium: 1875.2,
        holder: 'Dr Priya Shah',
      }),
      { customerId: 'C1000006', agencyId: null, notifications: ['welcome'], quotes: [], policies: [] },
      helen,
      oneLiner('C1000008', {
        policyNumber: '809X1000001',
        productType: 'PHL',
        productName: 'Home Insurance',
        apiProductType: 'home',
        policyType: 'Home Insurance',
        status: 'Active',
        startsIn: -120,
        annualPremium: 512.4,
        paymentFrequency: 'Monthly',
        holder: 'Mrs Anne Porter',
      }),
      oneLiner('C1000009', {
        policyNumber: '910X1000002',
        productType: 'PHL',
        productName: 'Home Insurance',
        apiProductType: 'home',
        policyType: 'Home Insurance',
        status: 'Active',
        startsIn: -45,
        annualPremium: 436.8,
        holder: 'Mr Thomas Reid',
      }),
      oneLiner('C1000010', {
        policyNumber: '111X1000003',
        productType: 'PHL',
        productName: 'Home Insurance',
        apiProductType: 'home',
        policyType: 'Home Insurance',
        status: 'Active',
        startsIn: -200,
        annualPremium: 398.1,
        holder: 'Mrs Rosemary Clarke',
      }),
      oneLiner('C1000011', {
        policyNumber: '212X1000004',
        productType: 'PHL',
        productName: 'Home Insurance',
        apiProductType: 'home',
        policyType: 'Home Insurance',
        status: 'Active',
        startsIn: -90,
        annualPremium: 467.5,
        holder: 'Mr Gareth Pryce',
      }),
      oneLiner('C1000012', {
        policyNumber: '313X1000005',
        productType: 'PHL',
        productName: 'Home Insurance',
        apiProductType: 'home',
        policyType: 'Home Insurance',
        status: 'Active',
        startsIn: -150,
        annualPremium: 402.9,
        holder: 'Mrs Fiona Maclean',
      }),
      oneLiner('C1000013', {
        policyNumber: '613X1000013',
        productType: 'PHL',
        productName: 'Home Insurance',
        apiProductType: 'home',
        policyType: 'Home Insurance',
        status: 'Active',
        startsIn: -150,
        annualPremium: 421.9,
        holder: 'Mrs Brenda Ashworth',
      }),
      oneLiner('C1000014', {
        policyNumber: '714X1000014',
        productType: 'MPC',
        productName: 'Motor Insurance',
        apiProductType: 'motor',
        policyType: 'Car Insurance',
        status: 'Active',
        startsIn: -60,
        annualPremium: 534.2,
        holder: 'Mr Alan Brereton',
        vehicleReg: ['YK19 WHB'],
        lines: [motorLine([['Skoda Octavia SE', 'YK19 WHB']])],
      }),
      oneLiner('C1000015', {
        policyNumber: '515X1000015',
        productType: 'PHL',
        productName: 'Home Insurance',
        apiProductType: 'home',
        policyType: 'Home Insurance',
        status: 'Active',
        startsIn: -150,
        annualPremium: 421.3,
        holder: 'Mrs Joan Whitfield',
      }),
      oneLiner('C1000016', {
        policyNumber: '616X1000016',
        productType: 'PHL',
        productName: 'Home Insurance',
        apiProductType: 'home',
        policyType: 'Home Insurance',
        status: 'Active',
        startsIn: -150,
        annualPremium: 421.3,
        holder: 'Mrs Eleanor Vaughan',
      }),
      oneLiner('C1000017', {
        policyNumber: '717X1000017',
        productType: 'PHL',
        productName: 'Home Insurance',
        apiProductType: 'home',
        policyType: 'Home Insurance',
        status: 'Active',
        startsIn: -75,
        annualPremium: 448.6,
        paymentFrequency: 'Monthly',
        holder: 'Mr Owen Pritchard',
      }),
      oneLiner('C1000018', {
        policyNumber: '818X1000018',
        productType: 'PHL',
        productName: 'Home Insurance',
        apiProductType: 'home',
        policyType: 'Home Insurance',
        status: 'Active',
        startsIn: -120,
        annualPremium: 398.4,
        holder: 'Ms Nia Rowlands',
      }),
      oneLiner('C1000019', {
        policyNumber: '919X1000019',
        productType: 'PHL',
        productName: 'Home Insurance',
        apiProductType: 'home',
        policyType: 'Home Insurance',
        status: 'Active',
        startsIn: -90,
        annualPremium: 412.75,
        holder: 'Mr Hywel Bevan',
      }),
    ],
  };
}
