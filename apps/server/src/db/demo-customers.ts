/**
 * The demo customers, the one source of truth for every module's seed and for what `npm start` prints.
 * The account module seeds their customer records (profile, preferences), the identity module the sign-in
 * accounts of those marked `registered`; their policies, quotes, agencies, documents and notifications
 * are in demo-portfolio.ts.
 * All names, addresses and numbers are fictitious (Ofcom drama ranges for phone numbers).
 */
export interface DemoCustomer {
  customerId: string;
  title: string;
  firstName: string;
  lastName: string;
  /** YYYY-MM-DD */
  dateOfBirth: string;
  /** Email on the customer record; null when the insurer holds none (registration then needs a policy number). */
  email: string | null;
  mobileNumber: string | null;
  landlineNumber: string | null;
  addressLineOne: string;
  addressLineTwo: string;
  addressLineThree: string;
  town: string;
  county: string;
  postCode: string;
  /** Present when the customer already has a portal account: their demo password. */
  registered?: { password: string; marketingChosen: boolean };
  /** What the demo shows, printed by `npm start`. */
  note: string;
}

export const demoCustomers: DemoCustomer[] = [
  {
    customerId: 'C1000001',
    title: 'Mrs',
    firstName: 'Margaret',
    lastName: 'Thompson',
    dateOfBirth: '1952-04-17',
    email: 'margaret.thompson@example.co.uk',
    mobileNumber: '07700900123',
    landlineNumber: '01632960456',
    addressLineOne: 'Bluebell Cottage',
    addressLineTwo: '12 Church Lane',
    addressLineThree: 'Little Harwood',
    town: 'Ledbury',
    county: 'Herefordshire',
    postCode: 'HR8 2AB',
    registered: { password: 'BluebellCottage1952', marketingChosen: true },
    note: 'registered; text or voice call code (mobile and landline); home with 23 valuables and bicycles, motor with two cars, a renewal to view online, a quote to buy online, and an agency',
  },
  {
    customerId: 'C1000002',
    title: 'Mr',
    firstName: 'David',
    lastName: 'Okafor',
    dateOfBirth: '1961-09-03',
    email: 'david.okafor@example.co.uk',
    mobileNumber: null,
    landlineNumber: '01632960789',
    addressLineOne: 'Home Farm',
    addressLineTwo: 'Station Road',
    addressLineThree: '',
    town: 'Market Weighton',
    county: 'East Yorkshire',
    postCode: 'YO43 3DT',
    registered: { password: 'HomeFarmHarvest61', marketingChosen: false },
    note: 'registered; landline only, so a 5-digit voice call code; sees the marketing step at first sign-in; a migration renewal with no online changes, fine art with premium shown as "Refer to your policy document", an expired policy, a quote without online buy, no agency',
  },
  {
    customerId: 'C1000003',
    title: 'Ms',
    firstName: 'Eleanor',
    lastName: 'Hughes',
    dateOfBirth: '1978-11-25',
    email: 'eleanor.hughes@example.co.uk',
    mobileNumber: '07700900456',
    landlineNumber: null,
    addressLineOne: 'Flat 3',
    addressLineTwo: '27 Quayside',
    addressLineThree: '',
    town: 'Bideford',
    county: 'Devon',
    postCode: 'EX39 2QQ',
    note: 'not yet registered: register with email, date of birth 25/11/1978 and postcode EX39 2QQ (mobile)',
  },
  {
    customerId: 'C1000004',
    title: 'Mr',
    firstName: 'Robert',
    lastName: 'Williams',
    dateOfBirth: '1949-02-08',
    email: 'robert.williams@example.co.uk',
    mobileNumber: null,
    landlineNumber: '01632960321',
    addressLineOne: 'The Old Rectory',
    addressLineTwo: 'Mill Street',
    addressLineThree: '',
    town: 'Llandovery',
    county: 'Carmarthenshire',
    postCode: 'SA20 0AA',
    note: 'not yet registered: register with date of birth 08/02/1949 and postcode SA20 0AA (landline only)',
  },
  {
    customerId: 'C1000005',
    title: 'Dr',
    firstName: 'Priya',
    lastName: 'Shah',
    dateOfBirth: '1985-06-30',
    email: null,
    mobileNumber: '07700900789',
    landlineNumber: '01632960111',
    addressLineOne: '8 Orchard Close',
    addressLineTwo: '',
    addressLineThree: '',
    town: 'Malton',
    county: 'North Yorkshire',
    postCode: 'YO17 7BN',
    note: 'not yet registered, no email on file: registration asks for policy number 507P87654321 (any email, date of birth 30/06/1985, postcode YO17 7BN)',
  },
  {
    customerId: 'C1000006',
    title: 'Mr',
    firstName: 'James',
    lastName: 'Carter',
    dateOfBirth: '1990-01-14',
    email: 'james.carter@example.co.uk',
    mobileNumber: '07700900222',
    landlineNumber: null,
    addressLineOne: '2 Weavers Row',
    addressLineTwo: '',
    addressLineThree: '',
    town: 'Hexham',
    county: 'Northumberland',
    postCode: 'NE46 3AA',
    registered: { password: 'WeaversRowHexham90', marketingChosen: true },
    note: 'registered; text code; no policies and no quotes (the empty dashboard), and the welcome message at first visit',
  },
  {
    customerId: 'C1000007',
    title: 'Mrs',
    firstName: 'Helen',
    lastName: 'Dawson',
    dateOfBirth: '1968-08-22',
    email: 'helen.dawson@example.co.uk',
    mobileNumber: '07700900333',
    landlineNumber: '01632960222',
    addressLineOne: 'Wrekin View',
    addressLineTwo: 'Longden Road',
    addressLineThree: 'Hanwood',
    town: 'Shrewsbury',
    county: 'Shropshire',
    postCode: 'SY5 8AB',
    registered: { password: 'ShropshireHills1968', marketingChosen: true },
    note: 'registered; text or voice call code; nine policies (five active, so "load more"; a renewal to view online; upcoming; two expired) including legal expenses, travel and personal accident, two quotes, an agency and a splash message',
  },
  {
    customerId: 'C1000008',
    title: 'Mrs',
    firstName: 'Anne',
    lastName: 'Porter',
    dateOfBirth: '1957-05-09',
    email: 'anne.porter@example.co.uk',
    mobileNumber: '07700900444',
    landlineNumber: '01632960444',
    addressLineOne: 'The Old Forge',
    addressLineTwo: 'Mill Street',
    addressLineThree: '',
    town: 'Wem',
    county: 'Shropshire',
    postCode: 'SY4 5AA',
    registered: { password: 'OldForgeWem1957', marketingChosen: true },
    note: 'registered; text or voice call code; one home policy; the customer to try changing the password with (the tests do, so nobody else is disturbed)',
  },
  {
    customerId: 'C1000009',
    title: 'Mr',
    firstName: 'Thomas',
    lastName: 'Reid',
    dateOfBirth: '1953-03-17',
    email: 'thomas.reid@example.co.uk',
    mobileNumber: '07700900555',
    landlineNumber: null,
    addressLineOne: '4 Harbour Terrace',
    addressLineTwo: '',
    addressLineThree: '',
    town: 'Whitby',
    county: 'North Yorkshire',
    postCode: 'YO21 3PU',
    registered: { password: 'HarbourTerrace1953', marketingChosen: true },
    note: 'registered; text code; one home policy; the customer to try the forgotten-password journey with (the tests reset his password, so nobody else is disturbed)',
  },
];
