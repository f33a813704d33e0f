import type { ModuleContext } from '../../platform/module';
// The doors of the modules whose services it names, for their declarations of them.
import type {} from '../account';
import type {} from '../content';
import type {} from '../identity';
import type {} from '../oidc';

/**
 * The portal module's context: customer records, sign-in accounts (codes, passwords, factors), the
 * provider's sign-in sessions (oidc) and the site settings (content).
 */
export type PortalContext = ModuleContext<'customers' | 'identity' | 'oidc' | 'content'>;
