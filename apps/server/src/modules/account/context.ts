import type { ModuleContext } from '../../platform/module';
// The doors of the modules whose services it names, for their declarations of them.
import type {} from '../content';
import type {} from '../identity';
import type {} from '../oidc';

/**
 * The account module's context: the site settings and pages (content), the customer's sign-in (identity:
 * when the password last changed, the factors), the status token (oidc), and its own customer records.
 */
export type AccountContext = ModuleContext<'content' | 'identity' | 'oidc' | 'customers'>;
