import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

/*
 * A fresh clone installs without warnings the project can act on (issue 24, point 7): every installed
 * package with an install script is approved or denied in package.json's allowScripts (npm 11 skips an
 * unreviewed one and ends `npm install` with a warning naming it). argon2 is approved (it builds its
 * binding where no prebuilt binary fits), esbuild too (it checks its platform binary); msw's is denied
 * (it copies a browser worker the portal does not use).
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const run = promisify(execFile);

describe('a clean first run', () => {
  it('has every install script of the installed packages reviewed in allowScripts', async (context) => {
    // An npm without allowScripts (10.x, as Node 20 ships) runs every script and has no such command.
    const listed = await run('npm', ['install-scripts', 'ls'], { cwd: root }).catch(
      (error: unknown) => error,
    );
    if (listed instanceof Error) {
      if (/unknown command/i.test(`${listed.message} ${(listed as { stderr?: string }).stderr ?? ''}`)) {
        context.skip();
      }
      throw listed;
    }
    const { stdout } = listed;
    expect(stdout.trim()).toBe('No packages with unreviewed install scripts.');
  });
});
