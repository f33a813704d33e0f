import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/*
 * The layer and cycle rules of eslint.config.js bite: each case lints a small file placed where the rule
 * applies and expects the rule to report it. (The rules' reasons: docs/architecture.md.)
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

  it('refuses lib or components importing content or a feature', async () => {
    const fromLib =
      "import { isKnownPageType } from '../content/page-registry';\nexport { isKnownPageType };\n";
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

  it('refuses an import cycle', async () => {
    const file = path.join(probeDir, 'a.ts');
    expect(await rulesBroken("import { b } from './b';\nexport const a = () => b;\n", file)).toContain(
      'import-x/no-cycle',
    );
  });
});
