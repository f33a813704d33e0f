import { staffRoles, type StaffRole } from '@portal/contracts/call';
import { z } from 'zod';
import { ConfigError } from './common';
import type { NodeEnv } from './process';
import type { ModuleName } from './services';

/*
 * The contact centre's sign-in (issue 41): the insurer's workforce identity provider (any OpenID Connect
 * provider: Microsoft Entra ID, Okta Workforce, Google Workspace...), how its groups map to the console's
 * roles, the multi-factor check, and the staff session's limits. Outside production, with no provider
 * set, a stand-in provider on this server signs in the demo staff.
 */

const STAND_IN = 'stand-in';

/** Which groups give each role by default: the stand-in provider's demo staff are in these. */
const defaultRoleGroups: Record<StaffRole, string[]> = {
  agent: ['portal-agents'],
  'senior-agent': ['portal-senior-agents'],
  auditor: ['portal-auditors'],
  editor: ['portal-editors'],
  publisher: ['portal-publishers'],
  operator: ['portal-operators'],
};

export const staffVariables = z.object({
  /**
   * The workforce provider's issuer URL (its discovery document is read at start), or `stand-in` for the
   * demo provider on this server (refused in production). Unset: the stand-in outside production, and no
   * staff console in production.
   */
  STAFF_OIDC_ISSUER: z.union([z.literal(STAND_IN), z.url({ protocol: /^https?$/ })]).optional(),
  /** The console's client at the workforce provider (a confidential client, authorization code + PKCE). */
  STAFF_OIDC_CLIENT_ID: z.string().min(1).max(200).optional(),
  STAFF_OIDC_CLIENT_SECRET: z.string().min(1).max(500).optional(),
  /** The claim holding the staff member's groups (Entra ID: `groups` or `roles`; Okta: `groups`). */
  STAFF_GROUPS_CLAIM: z.string().min(1).max(100).default('groups'),
  /** JSON: each role and the groups that give it, e.g. {"agent":["cc-agents"],"auditor":["audit"]}. */
  STAFF_ROLE_GROUPS: z.string().max(4000).optional(),
  /**
   * The multi-factor check of a staff sign-in: `amr:<values>` (the ID token's amr must hold one of these,
   * comma-separated), `acr:<values>` (its acr must be one of these), or `off` (the provider enforces it).
   */
  STAFF_MFA: z
    .string()
    .regex(/^(off|(amr|acr):[^,\s]+(,[^,\s]+)*)$/, 'Expected amr:<values>, acr:<values> or off')
    .default('amr:mfa'),
  /** A staff session ends after this many minutes without a call (default 15). */
  STAFF_SESSION_IDLE_MINUTES: z.coerce.number().int().min(1).max(120).default(15),
  /** ...and this many hours after sign-in, whatever is done (default 8). */
  STAFF_SESSION_MAX_HOURS: z.coerce.number().int().min(1).max(24).default(8),
  /**
   * Searches one staff member may make in 10 minutes, on every instance (default 30): an agent finds the
   * customers they are helping, and cannot page through the customer base.
   */
  STAFF_SEARCHES_PER_10_MINUTES: z.coerce.number().int().min(1).max(1_000_000).default(30),
  /**
   * Whether an agent needs the customer's one-time code to see their portal read only (issue 41 point 6):
   * `required` (default), or `off` for insurers whose call scripts check who is calling. Off, anyone with
   * the agent role can look at any customer's account without the customer present (docs/operations.md).
   */
  STAFF_SHARED_VIEW_CODE: z.enum(['required', 'off']).default('required'),
  /**
   * Whether an editor may publish a change they made themselves (issue 42): `false` by default, four eyes
   * (an editor's change is published by another member with the publisher role).
   */
  STAFF_CONTENT_SELF_PUBLISH: z.enum(['true', 'false']).default('false'),
});
type StaffValues = z.infer<typeof staffVariables> & NodeEnv;

/** The workforce provider: the stand-in on this server, or an issuer with the console's client. */
export type StaffProvider =
  { kind: 'stand-in' } | { kind: 'issuer'; issuer: string; clientId: string; clientSecret: string };

export interface StaffConfig {
  staff: {
    /** Null: no staff console on this instance (production without a workforce provider). */
    provider: StaffProvider | null;
    groupsClaim: string;
    roleGroups: Record<StaffRole, readonly string[]>;
    /** The ID token claim that must show a second factor, and its accepted values; null: not checked. */
    mfa: { claim: 'amr' | 'acr'; values: readonly string[] } | null;
    idleMs: number;
    maxMs: number;
    /** Searches a staff member may make in 10 minutes (STAFF_SEARCHES_PER_10_MINUTES). */
    searchLimit: number;
    /** Whether a shared view needs the customer's code (STAFF_SHARED_VIEW_CODE). */
    sharedViewCode: 'required' | 'off';
    /** Whether whoever changed a content item may also publish it (STAFF_CONTENT_SELF_PUBLISH). */
    contentSelfPublish: boolean;
  };
}

function roleGroupsOf(json: string | undefined): Record<StaffRole, readonly string[]> {
  if (json === undefined) return defaultRoleGroups;
  const schema = z.partialRecord(z.enum(staffRoles), z.array(z.string().min(1).max(200)).max(50));
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    throw new ConfigError('Invalid configuration: STAFF_ROLE_GROUPS: not JSON');
  }
  const result = schema.safeParse(parsed);
  if (!result.success) {
    throw new ConfigError(
      `Invalid configuration: STAFF_ROLE_GROUPS: expected {"agent":[...],"senior-agent":[...],"auditor":[...],"editor":[...],"publisher":[...],"operator":[...]}`,
    );
  }
  return {
    agent: [],
    'senior-agent': [],
    auditor: [],
    editor: [],
    publisher: [],
    operator: [],
    ...result.data,
  };
}

export function staffConfig(e: StaffValues, modules: ReadonlySet<ModuleName>): StaffConfig {
  const production = e.NODE_ENV === 'production';
  let provider: StaffProvider | null;
  if (e.STAFF_OIDC_ISSUER === STAND_IN || (e.STAFF_OIDC_ISSUER === undefined && !production)) {
    if (production && modules.has('staff')) {
      throw new ConfigError(
        'Invalid configuration: STAFF_OIDC_ISSUER: the stand-in workforce provider is not allowed in production; set the insurer’s issuer URL',
      );
    }
    provider = production ? null : { kind: 'stand-in' };
  } else if (e.STAFF_OIDC_ISSUER === undefined) {
    provider = null;
  } else {
    if (!e.STAFF_OIDC_CLIENT_ID || !e.STAFF_OIDC_CLIENT_SECRET) {
      throw new ConfigError(
        'Invalid configuration: STAFF_OIDC_CLIENT_ID: required, with STAFF_OIDC_CLIENT_SECRET, when STAFF_OIDC_ISSUER is set',
      );
    }
    provider = {
      kind: 'issuer',
      issuer: e.STAFF_OIDC_ISSUER,
      clientId: e.STAFF_OIDC_CLIENT_ID,
      clientSecret: e.STAFF_OIDC_CLIENT_SECRET,
    };
  }
  const colon = e.STAFF_MFA.indexOf(':');
  const [claim, values] =
    e.STAFF_MFA === 'off' ? [null, ''] : [e.STAFF_MFA.slice(0, colon), e.STAFF_MFA.slice(colon + 1)];
  return {
    staff: {
      provider,
      groupsClaim: e.STAFF_GROUPS_CLAIM,
      roleGroups: roleGroupsOf(e.STAFF_ROLE_GROUPS),
      mfa: claim === 'amr' || claim === 'acr' ? { claim, values: values!.split(',') } : null,
      idleMs: e.STAFF_SESSION_IDLE_MINUTES * 60_000,
      maxMs: e.STAFF_SESSION_MAX_HOURS * 3_600_000,
      searchLimit: e.STAFF_SEARCHES_PER_10_MINUTES,
      sharedViewCode: e.STAFF_SHARED_VIEW_CODE,
      contentSelfPublish: e.STAFF_CONTENT_SELF_PUBLISH === 'true',
    },
  };
}
