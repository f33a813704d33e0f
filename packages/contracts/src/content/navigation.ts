import { z } from 'zod/mini';
import { opensIn, safeLink } from './building-blocks';

// ---------------------------------------------------------------------------------------------------
// Navigation
// ---------------------------------------------------------------------------------------------------

export const navItemBase = z.object({
  id: z.string().check(z.minLength(1)),
  title: z.string().check(z.minLength(1)),
  url: safeLink,
  /** main: main navigation; utility: the utility links above it; footer: footer links. */
  group: z.enum(['main', 'utility', 'footer']),
  /** Shown only to signed-in customers. */
  requiresAuthentication: z._default(z.boolean(), false),
  /** Shown only to customers who are not signed in (for example "Sign in", "Register"). */
  hideWhenAuthenticated: z._default(z.boolean(), false),
  opensIn: z._default(opensIn, 'SameTab'),
});

export const navLeaf = navItemBase;
export const navItem = z.extend(navItemBase, {
  children: z.optional(z.array(navLeaf)),
  /**
   * The SPA fills the children itself: `policies` lists the customer's policies (active, upcoming,
   * expired), each linking to this item's url with `?id={policyNumber}`.
   */
  dynamicChildren: z.optional(z.enum(['policies'])),
});
export type NavItem = z.infer<typeof navItem>;

/**
 * The spec's "two lists of items": `header` (main navigation and utility links, told apart by `group`;
 * the SPA appends the sign-out button after the utility links itself) and `footer`.
 */
export const navigation = z.object({
  header: z.array(z.extend(navItem, { group: z.enum(['main', 'utility']) })),
  footer: z.array(z.extend(navItem, { group: z.literal('footer') })),
});
export type Navigation = z.infer<typeof navigation>;
