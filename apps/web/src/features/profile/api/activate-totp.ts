import { activateTotpCall } from '@portal/contracts/sign-in-methods';
import { callApi } from '../../../lib/api-client';

/** POST {portal}/api/v1/sign-in-methods/{customerId}/totp/{factorId}/activate: the app's first code. */
export const activateTotp = (customerId: string, factorId: string, passCode: string) =>
  callApi(activateTotpCall, { params: { customerId, factorId }, body: { passCode } });
