import type { CustomerProfile, MfaDisplayName, MfaMethod } from '@portal/contracts/profile';
import { notFound } from '../../platform/errors';
import type { AccountContext } from './context';
import { findCustomerWithAddress } from './customer.repository';

/** YYYY-MM-DD -> DD/MM/YYYY, as the personal details block shows it. */
const formatDateOfBirth = (iso: string) => `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;

/** The customer's personal and contact details and when their portal password was last set (spec §3). */
export function createProfileService(ctx: AccountContext) {
  return {
    async get(customerId: string): Promise<CustomerProfile> {
      const [found, passwordChangedAt] = await Promise.all([
        findCustomerWithAddress(ctx.db, customerId),
        // Through the identity module's service: modules do not read each other's tables.
        ctx.services.identity.getPasswordLastUpdated(customerId),
      ]);
      if (!found) throw notFound('There is no such customer.');
      const { customer, address } = found;
      return {
        firstName: customer.firstName,
        lastName: customer.lastName,
        dateOfBirthFormatted: formatDateOfBirth(customer.dateOfBirth),
        addressLineOne: address.addressLineOne,
        addressLineTwo: address.addressLineTwo,
        addressLineThree: address.addressLineThree,
        town: address.town,
        county: address.county,
        postCode: address.postCode,
        emailAddress: customer.email,
        mobileNumber: customer.mobileNumber,
        landlineNumber: customer.landlineNumber,
        passwordLastUpdated: passwordChangedAt ? passwordChangedAt.toISOString() : null,
      };
    },

    /**
     * How the factor a profile code would go to is named (masked: the last 3 digits only). A call goes to
     * the landline when there is one, as the code itself does. 404 when the customer has no such factor.
     */
    async mfaDisplayName(customerId: string, method: MfaMethod): Promise<MfaDisplayName> {
      const factors = (await ctx.services.identity.getFactors(customerId)).filter(
        (f) => f.factorType === (method === 'sms' ? 'sms' : 'call'),
      );
      const factor = method === 'call' ? (factors.find((f) => !f.isMobile) ?? factors[0]) : factors[0];
      if (!factor) throw notFound('There is no such factor for this customer.');
      return {
        displayName: `${method === 'sms' ? 'Text message to' : 'Phone call to'} ${factor.phoneNumber}`,
      };
    },
  };
}
export type ProfileService = ReturnType<typeof createProfileService>;
