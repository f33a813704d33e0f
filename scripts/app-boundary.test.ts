import { describe, expect, it } from 'vitest';
import { boundaryProblems } from './app-boundary.mjs';

/*
 * Decision 038: each web build fails when a chunk holds the other app's code (the customers' build a staff
 * module, the console's a module of the customers' own layers). The rule, on chunks as the builds give them.
 */

const chunk = (fileName: string, ...moduleIds: string[]) => ({ fileName, moduleIds });

describe('the web apps boundary', () => {
  it("finds a staff module in the customers' build", () => {
    expect(
      boundaryProblems('customer', [
        chunk('assets/index-a.js', 'src/main.tsx', 'src/app/router.tsx', 'src/components/ui/button.tsx'),
        chunk(
          'assets/dashboard-page-b.js',
          'src/features/dashboard/dashboard-page.tsx',
          'src/staff/content/texts.ts',
        ),
      ]),
    ).toEqual(['assets/dashboard-page-b.js holds src/staff/content/texts.ts']);
  });

  it("finds a module of the customers' app, content or session in the console's build", () => {
    expect(
      boundaryProblems('staff', [
        chunk('assets/staff-staff-a.js', 'src/staff/main.tsx', 'src/session/tokens.ts', 'src/main.tsx'),
        chunk('assets/staff-page-b.js', 'src/content/rich-text.tsx', 'src/features/auth/login-page.tsx'),
      ]),
    ).toEqual([
      'assets/staff-staff-a.js holds src/session/tokens.ts',
      'assets/staff-staff-a.js holds src/main.tsx',
      'assets/staff-page-b.js holds src/content/rich-text.tsx',
      'assets/staff-page-b.js holds src/features/auth/login-page.tsx',
    ]);
  });

  it('lets both share the components, lib, styles, contracts, content files and packages', () => {
    const shared = chunk(
      'assets/x.js',
      'src/components/ui/button.tsx',
      'src/lib/api-client.ts',
      'src/styles/app.css',
      '../../packages/contracts/src/staff.ts',
      '../../content/pages/profile-account-activity.json',
      '../../node_modules/react/index.js',
      'vite/preload-helper.js',
    );
    expect(boundaryProblems('customer', [shared])).toEqual([]);
    expect(boundaryProblems('staff', [shared, chunk('assets/staff-a.js', 'src/staff/main.tsx')])).toEqual([]);
  });
});
