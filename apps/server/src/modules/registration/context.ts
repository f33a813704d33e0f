import type { ModuleContext } from '../../platform/module';
// The doors of the modules whose services it names, for their declarations of them.
import type {} from '../account';
import type {} from '../identity';
import type {} from '../policy';

/**
 * The registration module's context: customer records (who is registering), policies (the policy-number
 * way), sign-in accounts (activation, the forgotten-password link) and its own service.
 */
export type RegistrationContext = ModuleContext<'customers' | 'policies' | 'identity' | 'registration'>;
