import type { ModuleContext } from '../../platform/module';
// The doors of the modules whose services it names, for their declarations of them.
import type {} from '../identity';

/** The oidc module's context: the identity module's service (it redeems its sessionTokens), and its own. */
export type OidcContext = ModuleContext<'identity' | 'oidc' | 'sessions'>;
