import type { CustomerProfile } from '@portal/contracts/profile';
import { notFound } from '../../platform/errors';
import type { ModuleContext } from '../../platform/module';
import { findCustomer, findCustomerAddress } from './customer.repository';

/** YYYY-MM-DD -> DD/MM/YYYY, as the personal details block shows it. */
const formatDateOfBirth = (iso: string) => `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;

/** The customer's personal and contact details and when their portal password was last set (spec §3). */
export function createProfileService(ctx: ModuleContext) {
  return {
    async get(customerId: string): Promise<CustomerProfile> {
      const [customer, address] = await Promise.all([
        findCustomer(ctx.db, customerId),
        findCustomerAddress(ctx.db, customerId),
      ]);
      if (!customer || !address) throw notFound('There is no such customer.');
      // Through the identity module's service: modules do not read each other's tables.
      const passwordChangedAt = await ctx.services.identity.getPasswordLastUpdated(customerId);
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
  };
}
export type ProfileService = ReturnType<typeof createProfileService>;
