import { z } from 'zod';
import { ConfigError } from './common';
import { countersConfig, countersVariables, type CountersConfig } from './counters';
import { databaseConfig, databaseVariables, type DatabaseConfig } from './database';
import { housekeepingConfig, housekeepingVariables, type HousekeepingConfig } from './housekeeping';
import { integrationConfig, integrationVariables, type IntegrationConfig } from './integration';
import { messagingConfig, messagingVariables, type MessagingConfig } from './messaging';
import { mfaConfig, mfaVariables, type MfaConfig } from './mfa';
import { observabilityConfig, observabilityVariables, type ObservabilityConfig } from './observability';
import { oidcConfig, oidcVariables, type OidcConfig } from './oidc';
import { processConfig, processVariables, publicUrlOf, type ProcessConfig } from './process';
import { servicesConfig, servicesVariables, type ServicesConfig } from './services';
import { staffConfig, staffVariables, type StaffConfig } from './staff';
import { webConfig, webVariables, type WebConfig } from './web';

/*
 * The server's configuration, one file per area beside this one: each holds its variables (with what
 * they mean), its part of Config and how it is read. This file puts them together.
 */

export { ConfigError, repoRoot } from './common';
export { parseIntegrationClients, type WebhookEndpointConfig } from './integration';
export type { ConfiguredJwk } from './oidc';
export type { StaffProvider } from './staff';
export { moduleNames, mountPrefix, type ModuleName } from './services';

/**
 * Every setting the server reads, from the environment. Parsed once at start; a bad value stops the
 * process with a one-line message naming the variable.
 */
const envSchema = z.object({
  ...processVariables.shape,
  ...databaseVariables.shape,
  ...countersVariables.shape,
  ...servicesVariables.shape,
  ...webVariables.shape,
  ...housekeepingVariables.shape,
  ...messagingVariables.shape,
  ...mfaVariables.shape,
  ...oidcVariables.shape,
  ...integrationVariables.shape,
  ...observabilityVariables.shape,
  ...staffVariables.shape,
});

/** The name of every variable the server reads (README.md and .env.example document each one). */
export const envVariables: readonly string[] = Object.keys(envSchema.shape);

/** The server's settings: each area's part, described in its file. */
export interface Config
  extends
    ProcessConfig,
    DatabaseConfig,
    CountersConfig,
    ServicesConfig,
    WebConfig,
    HousekeepingConfig,
    MessagingConfig,
    MfaConfig,
    OidcConfig,
    IntegrationConfig,
    ObservabilityConfig,
    StaffConfig {}

/** Reads config from an environment (process.env by default). Throws ConfigError naming the variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const name = String(issue.path[0] ?? 'environment');
    // One line, whatever the validator's wording: it is what an operator sees when the start fails.
    throw new ConfigError(`Invalid configuration: ${name}: ${issue.message.replace(/\s+/g, ' ')}`);
  }
  const e = parsed.data;
  const publicUrl = publicUrlOf(e);
  // The areas that can refuse a setting beyond its schema are read in a fixed order (those in the object
  // below from left to right): with more than one such setting wrong, the start names the first of them.
  const services = servicesConfig(e, publicUrl);
  const database = databaseConfig(e);
  const oidc = oidcConfig(e, services.modules);
  const messaging = messagingConfig(e, services.modules);
  const staff = staffConfig(e, services.modules);
  return {
    ...processConfig(e, publicUrl),
    ...database,
    ...countersConfig(e),
    ...services,
    ...webConfig(e, publicUrl),
    ...housekeepingConfig(e),
    ...messaging,
    ...mfaConfig(e, services.modules, publicUrl),
    ...oidc,
    ...integrationConfig(e),
    ...observabilityConfig(e),
    ...staff,
  };
}
