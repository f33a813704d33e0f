import { enrolTotpCall } from '@portal/contracts/sign-in-methods';
import { callApi } from '../../../lib/api-client';

/** POST {portal}/api/v1/sign-in-methods/{customerId}/totp: a new key, pending until its first code. */
export const enrolTotp = (customerId: string) => callApi(enrolTotpCall, { params: { customerId }, body: {} });
