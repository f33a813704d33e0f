/**
 * The integration API's contracts (server-only: the SPA never imports them). Importing this file defines
 * every integration call, for the server and the OpenAPI document.
 */
export * from './common';
export * from './bulk';
export * from './records';
export * from './events';
export * from './documents';
export * from './messages';
