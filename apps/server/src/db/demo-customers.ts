/**
 * The demo customers, the one source of truth for every module's seed and for what `npm start` prints.
 * The account module seeds their customer records (profile, preferences), the policy module their
 * policies, and the identity module the sign-in accounts of those marked `registered`.
 * All names, addresses and numbers are fictitious (Ofcom drama ranges for phone numbers).
 */
export interface DemoPolicy {
  policyNumber: string;
  productType: 'PHL' | 'PAH' | 'PHR' | 'MPC' | 'NGH' | 'NGB';
  productName: string;
  status: 'Active' | 'Upcoming' | 'Expired' | 'Renewing' | 'RenewalCustomerReady';
  startDate: string;
  renewalDate: string;
  annualPremium: number;
  paymentFrequency: 'Annual' | 'Monthly';
  vehicleReg?: string[];
}

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
  policies: DemoPolicy[];
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
    policies: [
      {
        policyNumber: '102X4567891',
        productType: 'PHL',
        productName: 'Home Insurance',
        status: 'Active',
        startDate: '2026-03-01',
        renewalDate: '2027-03-01',
        annualPremium: 612.4,
        paymentFrequency: 'Monthly',
      },
      {
        policyNumber: '102Q45678912',
        productType: 'MPC',
        productName: 'Motor Insurance',
        status: 'Active',
        startDate: '2026-07-15',
        renewalDate: '2027-07-15',
        annualPremium: 389,
        paymentFrequency: 'Annual',
        vehicleReg: ['AB12 CDE'],
      },
    ],
    registered: { password: 'BluebellCottage1952', marketingChosen: true },
    note: 'registered; text or voice call code (mobile and landline)',
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
    policies: [
      {
        policyNumber: '204X7654321',
        productType: 'PHR',
        productName: 'Home Insurance',
        status: 'Renewing',
        startDate: '2025-12-10',
        renewalDate: '2026-12-10',
        annualPremium: 845.75,
        paymentFrequency: 'Annual',
      },
    ],
    registered: { password: 'HomeFarmHarvest61', marketingChosen: false },
    note: 'registered; landline only, so a 5-digit voice call code; sees the marketing step at first sign-in',
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
    policies: [
      {
        policyNumber: '305X1122334',
        productType: 'PAH',
        productName: 'Valuables Insurance',
        status: 'Active',
        startDate: '2026-05-20',
        renewalDate: '2027-05-20',
        annualPremium: 298.5,
        paymentFrequency: 'Monthly',
      },
    ],
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
    policies: [
      {
        policyNumber: '406Q12345678',
        productType: 'NGH',
        productName: 'Home Insurance',
        status: 'Upcoming',
        startDate: '2026-12-01',
        renewalDate: '2027-12-01',
        annualPremium: 1024,
        paymentFrequency: 'Annual',
      },
    ],
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
    policies: [
      {
        policyNumber: '507P87654321',
        productType: 'NGB',
        productName: 'Fine Art and Collectables Insurance',
        status: 'Active',
        startDate: '2026-01-05',
        renewalDate: '2027-01-05',
        annualPremium: 1875.2,
        paymentFrequency: 'Annual',
      },
    ],
    note: 'not yet registered, no email on file: registration asks for policy number 507P87654321 (any email, date of birth 30/06/1985, postcode YO17 7BN)',
  },
];
