import { createBackupCodesCall } from '@portal/contracts/sign-in-methods';
import { callApi } from '../../../lib/api-client';

/** POST {portal}/api/v1/sign-in-methods/{customerId}/backup-codes: ten new codes, answered this once. */
export const createBackupCodes = (customerId: string) =>
  callApi(createBackupCodesCall, { params: { customerId }, body: {} });
