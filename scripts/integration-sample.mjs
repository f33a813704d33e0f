/**
 * Sample records in the integration API's bulk format (docs/integration.md): customers, each with a home
 * and a motor policy, as the insurer's systems would send them. Used by `npm run integration:demo` (a few
 * customers) and `npm run bench:import` (100,000). Ids start at C8000001 and policy numbers at
 * 800X0000001 / 801Q00000001, clear of the demo customers.
 */

const DAY = 24 * 60 * 60 * 1000;
const iso = (ms) => new Date(ms).toISOString().slice(0, 10);
const postcodes = [
  'LD3 7AA',
  'SY5 8AB',
  'HR8 2AB',
  'YO43 3DT',
  'EX39 2QQ',
  'NE46 3AA',
  'TD9 7PP',
  'LA22 0HH',
];
const towns = [
  'Brecon',
  'Shrewsbury',
  'Ledbury',
  'Market Weighton',
  'Bideford',
  'Hexham',
  'Hawick',
  'Ambleside',
];
const firstNames = [
  'Margaret',
  'John',
  'Susan',
  'Peter',
  'Mary',
  'David',
  'Patricia',
  'Michael',
  'Linda',
  'Robert',
];
const lastNames = [
  'Jones',
  'Evans',
  'Davies',
  'Hughes',
  'Price',
  'Morgan',
  'Powell',
  'Lloyd',
  'Griffiths',
  'Owen',
];

/** The customer of sample number i (from 1): what registering as them needs. */
export function sampleCustomer(i, today = new Date()) {
  const customerId = `C${8_000_000 + i}`;
  const dob = iso(Date.UTC(1940, 0, 1) + ((i * 7919) % 20_000) * DAY);
  return {
    customerId,
    title: i % 2 ? 'Mrs' : 'Mr',
    firstName: firstNames[i % firstNames.length],
    lastName: `${lastNames[(i * 3) % lastNames.length]}`,
    dateOfBirth: dob,
    email: `sample.customer.${i}@example.org`,
    mobileNumber: `07700${String(900_000 + (i % 100_000)).padStart(6, '0')}`,
    landlineNumber: null,
    address: {
      lineOne: `${1 + (i % 180)} Church Lane`,
      lineTwo: '',
      lineThree: '',
      town: towns[i % towns.length],
      county: '',
      postCode: postcodes[i % postcodes.length],
    },
    agencyId: null,
    today,
  };
}

const cover = (...types) => types.map((type) => ({ type }));

/** The NDJSON lines of sample customers from..to (inclusive), each followed by its two policies. */
export function* sampleLines({ from = 1, to, version = 1, today = new Date() }) {
  const start = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate());
  for (let i = from; i <= to; i += 1) {
    const { today: _today, customerId, ...record } = sampleCustomer(i, today);
    yield JSON.stringify({ type: 'customer', key: customerId, record: { version, ...record } });
    const holder = `${record.title} ${record.firstName} ${record.lastName}`;
    const started = start - ((i * 37) % 300) * DAY;
    const base = {
      version,
      customerId,
      status: 'Active',
      startDate: iso(started),
      renewalDate: iso(started + 365 * DAY),
      paymentFrequency: i % 3 ? 'Annual' : 'Monthly',
      policyHolders: [{ name: holder, primary: true }],
      isMigrationRenewal: false,
      allowMTA: true,
      onlineViewRenewal: false,
      agencyId: null,
    };
    yield JSON.stringify({
      type: 'policy',
      key: `800X${String(i).padStart(7, '0')}`,
      record: {
        ...base,
        productType: 'PHL',
        productName: 'Home Insurance',
        apiProductType: 'home',
        policyType: 'Home Insurance',
        annualPremium: { visible: true, value: 300 + (i % 700) + 0.5 },
        vehicleReg: [],
        linesOfBusiness: [
          {
            type: 'Home',
            coverLevel: 'Standard',
            risks: [
              {
                displayName: 'Buildings',
                registration: null,
                covers: cover('Buildings', 'Accidental damage'),
              },
              { displayName: 'Contents', registration: null, covers: cover('Contents') },
            ],
            valuables: [],
            bicycles: [],
          },
        ],
      },
    });
    const reg = `SA${String(10 + (i % 60)).padStart(2, '0')} ${String.fromCharCode(65 + (i % 26))}BC`;
    yield JSON.stringify({
      type: 'policy',
      key: `801Q${String(i).padStart(8, '0')}`,
      record: {
        ...base,
        productType: 'MPC',
        productName: 'Motor Insurance',
        apiProductType: 'motor',
        policyType: 'Car Insurance',
        annualPremium: { visible: true, value: 250 + (i % 500) },
        vehicleReg: [reg],
        linesOfBusiness: [
          {
            type: 'Motor',
            coverLevel: 'Comprehensive',
            risks: [
              { displayName: 'Ford Focus', registration: reg, covers: cover('Comprehensive', 'Windscreen') },
            ],
            valuables: [],
            bicycles: [],
          },
        ],
      },
    });
  }
}
