import { authnCall } from '@portal/contracts/identity';
import { callApi } from '../../lib/api-client';
import { widened, type AuthnAnswer } from './authn-answer';

const authn = widened(authnCall);

/** POST /api/v1/authn: primary authentication with email and password. */
export function primaryAuthentication(username: string, password: string): Promise<AuthnAnswer> {
  return callApi(authn, { body: { username, password } });
}
