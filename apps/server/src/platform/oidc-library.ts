/**
 * node-oidc-provider, loaded here and nowhere else. On a Node release older than 22 LTS the library
 * prints "oidc-provider WARNING: Unsupported runtime" as it loads, in every process that loads it (twice
 * on a first start: the embedded database is prepared in a child process). The portal supports Node
 * 20.19+ and its tests run on it; the start banner gives that advice once, in plain words
 * (server.ts, nodeAdvice), so that one line of the library is held back while it loads. Any other
 * warning it prints passes through.
 */
import type OidcProvider from 'oidc-provider';

const UNSUPPORTED_RUNTIME = 'oidc-provider WARNING: Unsupported runtime';

const warn = console.warn;
console.warn = (...args: unknown[]) => {
  if (typeof args[0] === 'string' && args[0].includes(UNSUPPORTED_RUNTIME)) return;
  warn(...args);
};
const library = await import('oidc-provider').finally(() => {
  console.warn = warn;
});

export const { default: Provider, errors } = library;
export type Provider = OidcProvider;
