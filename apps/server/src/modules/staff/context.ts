import type { ModuleContext } from '../../platform/module';
// The doors of the modules whose services it names, for their declarations of them.
import type {} from '../account';
import type {} from '../identity';
import type {} from '../oidc';
import type {} from '../policy';
import type {} from '../portal';
import type {} from '../registration';

/**
 * The staff module's context: the console's sign-in and sessions are its own; finding and helping a
 * customer goes through the services of the modules below (customer records, the sign-in account, its
 * sessions, policies, registration, and the portal's account activity and changes).
 */
export type StaffContext = ModuleContext<
  'customers' | 'identity' | 'oidc' | 'policies' | 'registration' | 'portal'
>;
