/*
 * The identity module's SQL, one file per table (repository/), as the authn steps are one file each.
 * Nothing but SQL and row mapping lives there.
 */
export * from './repository/rows';
export * from './repository/users';
export * from './repository/factors';
export * from './repository/transactions';
export * from './repository/codes';
export * from './repository/session-tokens';
export * from './repository/link-tokens';
export * from './repository/authenticators';
export * from './repository/passkeys';
export * from './repository/contact-changes';
export * from './repository/support';
