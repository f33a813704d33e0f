import { z } from 'zod';
import { ConfigError, optionalUrl } from './common';
import type { IntegrationValues } from './integration';

/* The service modules: which of them this instance serves, and the base URL each is called at. */

export const moduleNames = [
  'content',
  'identity',
  'registration',
  'account',
  'policy',
  'document',
  'eventlog',
  'portal',
  'integration',
  'staff',
] as const;
export type ModuleName = (typeof moduleNames)[number];

export const servicesVariables = z.object({
  /** Which service modules this instance serves; all by default. */
  MODULES: z.string().optional(),
  CONTENT_BASE_URL: optionalUrl,
  ACCOUNT_BASE_URL: optionalUrl,
  POLICY_BASE_URL: optionalUrl,
  DOCUMENT_BASE_URL: optionalUrl,
  EVENTLOG_BASE_URL: optionalUrl,
  REGISTRATION_BASE_URL: optionalUrl,
  PORTAL_API_BASE_URL: optionalUrl,
  IDENTITY_BASE_URL: optionalUrl,
});
/** With the integration API's base URL, which is with the rest of its settings (integration.ts). */
type ServicesValues = z.infer<typeof servicesVariables> & Pick<IntegrationValues, 'INTEGRATION_BASE_URL'>;

export interface ServicesConfig {
  modules: ReadonlySet<ModuleName>;
  /** Base URL of each service as the SPA calls it; the module is mounted under its path. */
  baseUrls: Record<ModuleName, string>;
}

/** The variable of each module's base URL; a module without one (staff: /staff) is at the public URL. */
const baseUrlEnv: Partial<Record<ModuleName, Exclude<keyof ServicesValues, 'MODULES'>>> = {
  content: 'CONTENT_BASE_URL',
  identity: 'IDENTITY_BASE_URL',
  registration: 'REGISTRATION_BASE_URL',
  account: 'ACCOUNT_BASE_URL',
  policy: 'POLICY_BASE_URL',
  document: 'DOCUMENT_BASE_URL',
  eventlog: 'EVENTLOG_BASE_URL',
  portal: 'PORTAL_API_BASE_URL',
  integration: 'INTEGRATION_BASE_URL',
};

/** The modules MODULES names (all when unset), each at its base URL or else at the public URL. */
export function servicesConfig(e: ServicesValues, publicUrl: string): ServicesConfig {
  const baseUrls = Object.fromEntries(
    moduleNames.map((m) => {
      const variable = baseUrlEnv[m];
      return [m, ((variable && e[variable]) ?? publicUrl).replace(/\/+$/, '')];
    }),
  ) as Record<ModuleName, string>;

  let modules: Set<ModuleName> = new Set(moduleNames);
  if (e.MODULES) {
    const wanted = e.MODULES.split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const unknown = wanted.filter((m) => !(moduleNames as readonly string[]).includes(m));
    if (unknown.length > 0 || wanted.length === 0) {
      throw new ConfigError(
        `Invalid configuration: MODULES: unknown module ${unknown.join(', ') || '(none)'}; expected some of ${moduleNames.join(', ')}`,
      );
    }
    modules = new Set(wanted as ModuleName[]);
  }
  return { modules, baseUrls };
}

/** The path a module is mounted under: the path part of its base URL ('' for the site root). */
export function mountPrefix(baseUrl: string): string {
  const p = new URL(baseUrl).pathname.replace(/\/+$/, '');
  return p === '/' ? '' : p;
}
