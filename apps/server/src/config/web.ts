import path from 'node:path';
import { z } from 'zod';
import { repoRoot, url } from './common';

/*
 * What the SPA is served from and given: its built files, its feature flags' key, the policy system it
 * links to.
 */

export const webVariables = z.object({
  FEATURE_FLAG_SDK_KEY: z.string().min(1).max(200).default('sdk-portal-local'),
  WEB_DIST_DIR: z
    .string()
    .min(1)
    .default(path.join(repoRoot, 'apps', 'web', 'dist')),
  /** The insurer's policy system, where mid-term changes, renewals and quote-and-buy continue. */
  POLICY_SYSTEM_URL: url.optional(),
});

export interface WebConfig {
  /**
   * Where links to the insurer's policy system lead (mid-term adjustment, view renewal, request a change,
   * online quote and buy). Unset: the portal's own stand-in page at {publicUrl}/policy-system.
   */
  policySystemUrl: string;
  featureFlagSdkKey: string;
  webDistDir: string;
}

export function webConfig(e: z.infer<typeof webVariables>, publicUrl: string): WebConfig {
  return {
    policySystemUrl: (e.POLICY_SYSTEM_URL ?? `${publicUrl}/policy-system`).replace(/\/+$/, ''),
    featureFlagSdkKey: e.FEATURE_FLAG_SDK_KEY,
    webDistDir: e.WEB_DIST_DIR,
  };
}
