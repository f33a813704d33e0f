import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/*
 * The layer and cycle rules of eslint.config.js bite: each case lints a small file placed where the rule
 * applies and expects the rule to report it. The unused-export check of `npm run lint` bites too: knip, with
 * the lint script's own options, fails on a small project with an export nobody imports. (The rules'
 * reasons: docs/architecture.md.)
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const web = path.join(root, 'apps/web/src');
const probeDir = path.join(web, 'lib/lint-probe');
let eslint: ESLint;

async function rulesBroken(code: string, file: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: file });
  return (result?.messages ?? []).map((m) => m.ruleId ?? m.message);
}

beforeAll(() => {
  eslint = new ESLint({ cwd: root });
  mkdirSync(probeDir, { recursive: true });
  writeFileSync(path.join(probeDir, 'a.ts'), "import { b } from './b';\nexport const a = () => b;\n");
  writeFileSync(path.join(probeDir, 'b.ts'), "import { a } from './a';\nexport const b = () => a;\n");
});
afterAll(() => rmSync(probeDir, { recursive: true, force: true }));

describe('lint rules', () => {
  it('refuses a feature importing another feature, even by a relative path', async () => {
    const code =
      "import RegistrationPage from '../registration/registration-page';\nexport { RegistrationPage };\n";
    expect(await rulesBroken(code, path.join(web, 'features/auth/probe.ts'))).toContain(
      'import-x/no-restricted-paths',
    );
  });

  it('refuses a feature importing the app layer', async () => {
    const code = "import { router } from '../../app/router';\nexport { router };\n";
    expect(await rulesBroken(code, path.join(web, 'features/auth/probe.ts'))).toContain(
      'import-x/no-restricted-paths',
    );
  });

  it('refuses content importing a feature or the app: the app composes the registries', async () => {
    const fromContent = "import LoginPage from '../features/auth/login-page';\nexport { LoginPage };\n";
    expect(await rulesBroken(fromContent, path.join(web, 'content/probe.ts'))).toContain(
      'import-x/no-restricted-paths',
    );
    const fromBlock = "import { blockLoaders } from '../../app/block-registry';\nexport { blockLoaders };\n";
    expect(await rulesBroken(fromBlock, path.join(web, 'content/blocks/probe.ts'))).toContain(
      'import-x/no-restricted-paths',
    );
  });

  it('accepts a feature importing content', async () => {
    const code = "import { ContentBlocks } from '../../content/content-blocks';\nexport { ContentBlocks };\n";
    expect(await rulesBroken(code, path.join(web, 'features/auth/probe.tsx'))).toEqual([]);
  });

  it('refuses lib or components importing content or a feature', async () => {
    const fromLib = "import { RichText } from '../content/rich-text';\nexport { RichText };\n";
    expect(await rulesBroken(fromLib, path.join(web, 'lib/probe.ts'))).toContain(
      'import-x/no-restricted-paths',
    );
    const fromUi = "import LoginPage from '../../features/auth/login-page';\nexport { LoginPage };\n";
    expect(await rulesBroken(fromUi, path.join(web, 'components/ui/probe.tsx'))).toContain(
      'import-x/no-restricted-paths',
    );
  });

  it('accepts a feature importing lib and components', async () => {
    const code = "import { callApi } from '../../lib/api-client';\nexport { callApi };\n";
    expect(await rulesBroken(code, path.join(web, 'features/auth/probe.ts'))).toEqual([]);
  });

  it("refuses customer code importing the staff console, and the console importing the customers' app", async () => {
    const fromFeature = "import { texts } from '../../staff/content/texts';\nexport { texts };\n";
    expect(await rulesBroken(fromFeature, path.join(web, 'features/auth/probe.ts'))).toContain(
      'import-x/no-restricted-paths',
    );
    const fromLib = "import { consolePaths } from '../staff/lib/paths';\nexport { consolePaths };\n";
    expect(await rulesBroken(fromLib, path.join(web, 'lib/probe.ts'))).toContain(
      'import-x/no-restricted-paths',
    );
    const fromStaff = "import { useSession } from '../../../session/session';\nexport { useSession };\n";
    expect(await rulesBroken(fromStaff, path.join(web, 'staff/features/find-customer/probe.ts'))).toContain(
      'import-x/no-restricted-paths',
    );
  });

  it("keeps the console's own layers: no feature imports another, the session imports no feature", async () => {
    const crossFeature =
      "import { AuditTrailPage } from '../audit-trail/audit-trail-page';\nexport { AuditTrailPage };\n";
    expect(
      await rulesBroken(crossFeature, path.join(web, 'staff/features/customer-record/probe.ts')),
    ).toContain('import-x/no-restricted-paths');
    const upward =
      "import { FindCustomerPage } from '../features/find-customer/find-customer-page';\nexport { FindCustomerPage };\n";
    expect(await rulesBroken(upward, path.join(web, 'staff/session/probe.ts'))).toContain(
      'import-x/no-restricted-paths',
    );
  });

  it("accepts the console importing the portal's components and lib", async () => {
    const code =
      "import { Button } from '../../../components/ui/button';\nimport { callApi } from '../../../lib/api-client';\nexport { Button, callApi };\n";
    expect(await rulesBroken(code, path.join(web, 'staff/features/find-customer/probe.tsx'))).toEqual([]);
  });

  it('refuses an import cycle', async () => {
    const file = path.join(probeDir, 'a.ts');
    expect(await rulesBroken("import { b } from './b';\nexport const a = () => b;\n", file)).toContain(
      'import-x/no-cycle',
    );
  });

  it('fails the unused-export check of the lint script on an export nobody imports', () => {
    const lint = (
      JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
        scripts: Record<string, string>;
      }
    ).scripts['lint']!;
    const knipArgs = /\bknip((?: --?[\w-]+(?:[ =][\w,]+)?)*)/.exec(lint)?.[1]?.split(/\s+/).filter(Boolean);
    expect(knipArgs, 'the lint script runs knip').toBeDefined();

    const project = mkdtempSync(path.join(tmpdir(), 'knip-probe-'));
    try {
      mkdirSync(path.join(project, 'src'));
      writeFileSync(
        path.join(project, 'package.json'),
        '{ "name": "knip-probe", "private": true, "type": "module" }\n',
      );
      writeFileSync(
        path.join(project, 'knip.json'),
        '{ "entry": ["src/index.ts"], "project": ["src/**/*.ts"] }\n',
      );
      writeFileSync(path.join(project, 'src/index.ts'), "import { used } from './helper';\nused();\n");
      writeFileSync(
        path.join(project, 'src/helper.ts'),
        'export function used() {}\nexport function neverUsed() {}\nexport type NeverUsedType = string;\n',
      );
      const knip = path.join(root, 'node_modules/knip/bin/knip.js');
      const run = spawnSync(process.execPath, [knip, ...knipArgs!, '--no-progress'], {
        cwd: project,
        encoding: 'utf8',
      });
      expect(run.status, run.stderr).toBe(1);
      expect(run.stdout).toMatch(/Unused exports \(1\)\s+neverUsed\b.*src\/helper\.ts/);
      expect(run.stdout).toMatch(/Unused exported types \(1\)\s+NeverUsedType\b/);
      expect(run.stdout).not.toMatch(/\bused\b.*src\/helper\.ts:1/);
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  });
});
