import {
  startRegistrationCall,
  type RegistrationBody,
  type RegistrationStatus,
} from '@portal/contracts/registration';
import { ApiError, callApi, NetworkError } from '../../../lib/api-client';

/** What a registration attempt came to, including the two ways it can fail outright (spec: Error). */
type RegistrationOutcome =
  | { kind: 'status'; status: Exclude<RegistrationStatus, 'Error'> }
  /** Status Error (503) or no answer: the journey goes to /error. */
  | { kind: 'error'; reason: 'Error' | 'network' }
  /** Too many attempts for this email or address (429). */
  | { kind: 'rateLimited' }
  /** The service refused a field (400); the form checks the same rules, so this is rare. */
  | { kind: 'rejected' };

/** POST the registration service's /Registration; never navigates, the page decides. */
export async function startRegistration(body: RegistrationBody): Promise<RegistrationOutcome> {
  try {
    const answer = await callApi(startRegistrationCall, { body });
    return { kind: 'status', status: answer.status };
  } catch (error) {
    if (error instanceof NetworkError) return { kind: 'error', reason: 'network' };
    if (error instanceof ApiError && error.status === 429) return { kind: 'rateLimited' };
    if (error instanceof ApiError && error.status === 400) return { kind: 'rejected' };
    return { kind: 'error', reason: 'Error' };
  }
}
