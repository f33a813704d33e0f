/**
 * Issue 39: the server's module map only goes down, and lint holds the code to it as it holds the web's
 * features to theirs. The map read from the code (`npm run modules`) has no edge up, no cycle, no import
 * of another module's inner file or of db/, no platform file naming a module, and no module's SQL naming
 * a table another owns. Lint refuses a planted import of each forbidden kind, and takes a lawful one.
 */
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './config';
import { describeModuleMap, readModuleMap } from './module-map';

describe('the module map', () => {
  it('has every edge going down, no cycle, one door to each module and each table one owner', () => {
    const report = readModuleMap();
    expect(report.problems).toEqual([]);
    // Enough edges read that the check means something: the integration module writes through four.
    expect(report.edges.filter((e) => e.from === 'integration' && e.kind === 'uses')).toHaveLength(4);
    expect(report.tables['message']).toContain('customer_message');
    expect(report.tables['oidc']).toContain('portal_sign_in_session');
    expect(describeModuleMap(report)).toContain('Every edge goes down the map; no cycle');
  });
});

describe('lint on the module map', () => {
  const eslint = new ESLint({ cwd: repoRoot });
  const server = path.join(repoRoot, 'apps', 'server', 'src');
  /** The messages lint gives a file of this text at this place in the server's tree. */
  const lint = async (where: string, text: string) => {
    const [result] = await eslint.lintText(`${text}\nexport const planted = probe;\n`, {
      filePath: path.join(server, where),
    });
    return result!.messages.filter((m) => m.ruleId === 'import-x/no-restricted-paths').map((m) => m.message);
  };

  it.each([
    [
      "another module's inner file",
      'modules/document/planted.ts',
      "import { findPolicyHolder as probe } from '../policy/policy.repository';",
      /through its index\.ts only/,
    ],
    [
      'a module on the same row',
      'modules/portal/planted.ts',
      "import { registrationModule as probe } from '../registration';",
      /not below portal on the module map/,
    ],
    [
      'a module above',
      'modules/policy/planted.ts',
      "import { documentModule as probe } from '../document';",
      /not below policy on the module map/,
    ],
    [
      'db/ from a module',
      'modules/account/planted.ts',
      "import { seedDemo as probe } from '../../db/demo';",
      /No module imports db\//,
    ],
    [
      'a module from the platform',
      'platform/planted.ts',
      "import { policyModule as probe } from '../modules/policy';",
      /The platform is below every module/,
    ],
    [
      'db/ from the platform',
      'platform/planted.ts',
      "import { seedAll as probe } from '../db/seed';",
      /The platform is below every module/,
    ],
  ])('refuses %s', async (_kind, where, text, message) => {
    const messages = await lint(where, text);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(message);
  });

  it("takes a module's import of one below it, through its index.ts", async () => {
    expect(
      await lint('modules/document/planted.ts', "import { policyModule as probe } from '../policy';"),
    ).toEqual([]);
  });
});
