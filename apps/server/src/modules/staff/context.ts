import type { ModuleContext } from '../../platform/module';

/** The staff module's context: the console's sign-in and sessions need no other module's services yet. */
export type StaffContext = ModuleContext<never>;
