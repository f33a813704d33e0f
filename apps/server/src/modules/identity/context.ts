import type { ModuleContext } from '../../platform/module';
// The doors of the modules whose services it names, for their declarations of them.
import type {} from '../content';

/**
 * The identity module's context: the site settings (content, for the password rules), the ending of an
 * account's sign-ins (the oidc module's, through the composition: a reset ends every other session), and
 * its own service.
 */
export type IdentityContext = ModuleContext<'content' | 'sessions' | 'identity'>;
