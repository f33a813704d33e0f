import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { readdirSync, readFileSync } from 'node:fs';
import { URL } from 'node:url';

const web = './apps/web/src';
// Every feature folder, as it is on disk: a new feature is under the rules without editing this file.
const features = readdirSync(new URL('apps/web/src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/**
 * The web app's layers (docs/architecture.md). Checked on resolved paths, so relative imports are caught
 * as well as aliased ones:
 *   app -> features -> content -> session -> components, lib -> contracts
 * A feature imports no other feature and not the app; content imports no feature and not the app (the
 * app composes the page and block registries); session, components and lib import no feature, no
 * content and not the app; lib and components do not import the session either.
 */
const webLayers = [
  ...features.map((feature) => ({
    target: `${web}/features/${feature}`,
    from: `${web}/features`,
    except: [`./${feature}`],
    message:
      'Features must not import each other: share through content/, session/, components/ or lib/, compose in app/.',
  })),
  {
    target: `${web}/features`,
    from: `${web}/app`,
    message: 'Features must not import the app layer: the app composes features, not the other way round.',
  },
  {
    target: `${web}/content`,
    from: [`${web}/features`, `${web}/app`],
    message:
      'content/ holds what features use and knows no feature and no app: register a feature in app/ (page-registry.tsx, block-registry.ts).',
  },
  ...['lib', 'components', 'session'].flatMap((layer) => [
    {
      target: `${web}/${layer}`,
      from: [`${web}/features`, `${web}/content`, `${web}/app`],
      message: `${layer}/ knows no feature, no content and no app: move the code up, or pass it in.`,
    },
  ]),
  ...['lib', 'components'].map((layer) => ({
    target: `${web}/${layer}`,
    from: `${web}/session`,
    message: `${layer}/ is below the session: take what it needs as an argument.`,
  })),
];

/**
 * The staff console (decision 038): its own app in src/staff/, with the same layers inside it
 *   staff/app -> staff/features -> staff/content -> staff/session -> staff/lib
 * on the portal's shared components/ and lib/ (and the contracts). The customers' app imports nothing of
 * it, and it imports nothing of theirs (app/, features/, content/, session/): each build also fails if it
 * holds the other's code (scripts/app-boundary.mjs).
 */
const staff = `${web}/staff`;
const staffFeatures = readdirSync(new URL('apps/web/src/staff/features', import.meta.url), {
  withFileTypes: true,
})
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const customerApp = ['app', 'features', 'content', 'session'].map((layer) => `${web}/${layer}`);
const staffLayers = [
  {
    target: [...customerApp, `${web}/lib`, `${web}/components`, `${web}/main.tsx`, `${web}/entry-server.tsx`],
    from: staff,
    message:
      'The staff console is its own app: no customer code imports it (a customer page must never load staff code). Share through components/ or lib/.',
  },
  {
    target: staff,
    from: customerApp,
    message:
      "The staff console uses the portal's components/, lib/ and the contracts, never the customers' app, features, content or session.",
  },
  ...staffFeatures.map((feature) => ({
    target: `${staff}/features/${feature}`,
    from: `${staff}/features`,
    except: [`./${feature}`],
    message:
      'Console features must not import each other: share through staff/content, staff/session or staff/lib, compose in staff/app.',
  })),
  {
    target: `${staff}/features`,
    from: `${staff}/app`,
    message: 'Console features must not import the console app layer: staff/app composes them.',
  },
  {
    target: `${staff}/content`,
    from: [`${staff}/features`, `${staff}/app`],
    message: 'staff/content knows no console feature and not staff/app.',
  },
  {
    target: `${staff}/session`,
    from: [`${staff}/features`, `${staff}/content`, `${staff}/app`],
    message: 'staff/session knows no console feature, no staff/content and not staff/app.',
  },
  {
    target: `${staff}/lib`,
    from: [`${staff}/features`, `${staff}/content`, `${staff}/app`, `${staff}/session`],
    message: "staff/lib is the console's bottom layer: it knows nothing above it.",
  },
];

const server = './apps/server/src';
/** The server's module map, bottom row first (apps/server/src/modules/map.json; docs/architecture.md). */
const serverMap = JSON.parse(
  readFileSync(new URL('apps/server/src/modules/map.json', import.meta.url), 'utf8'),
);
const serverModules = serverMap.layers.flat();
const layerOf = new Map(serverMap.layers.flatMap((layer, i) => layer.map((name) => [name, i])));

/**
 * The server's layers, as the web's: a module imports another only through its index.ts and only when
 * the other is on a lower row of the map; no module imports db/ (the demo data loads through the
 * modules, not the other way round); the platform imports no module and no db/. Checked on resolved
 * paths, so relative imports are caught.
 */
const serverLayers = [
  ...serverModules.flatMap((name) =>
    serverModules
      .filter((other) => other !== name)
      .map((other) =>
        layerOf.get(other) < layerOf.get(name)
          ? {
              target: `${server}/modules/${name}`,
              from: `${server}/modules/${other}`,
              except: ['./index.ts'],
              message: `Import the ${other} module through its index.ts only: its inner files are its own.`,
            }
          : {
              target: `${server}/modules/${name}`,
              from: `${server}/modules/${other}`,
              message: `The ${other} module is not below ${name} on the module map (modules/map.json): a module uses only those below it. Declare a port for what it needs, and join them in modules/index.ts.`,
            },
      ),
  ),
  {
    target: `${server}/modules`,
    from: `${server}/db`,
    message:
      'No module imports db/: the demo data (db/demo/) loads through the modules, not the other way round.',
  },
  {
    target: `${server}/platform`,
    from: [`${server}/modules`, `${server}/db`],
    message: 'The platform is below every module: it names none, and no db/. Take what it needs as a port.',
  },
];

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '.data/**',
      'coverage/**',
      'test-results/**',
      'playwright-report/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    files: ['apps/**/*.{ts,tsx}', 'packages/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': importX.flatConfigs.typescript.settings['import-x/extensions'],
      'import-x/parsers': importX.flatConfigs.typescript.settings['import-x/parsers'],
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: [
            'apps/web/tsconfig.json',
            'apps/server/tsconfig.json',
            'packages/contracts/tsconfig.json',
          ],
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
    rules: {
      // No import cycles anywhere (web, server, contracts).
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    // Tests and their helpers compose the app as main.tsx does, so they may reach across the layers.
    ignores: ['**/*.test.{ts,tsx}', '**/testing/**', 'apps/web/src/test/**'],
    plugins: { 'import-x': importX },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: [...webLayers, ...staffLayers] }],
    },
  },
  {
    files: ['apps/server/src/**/*.ts'],
    // Tests and their helpers compose the server as app.ts does, so they may reach across the modules.
    ignores: ['**/*.test.ts'],
    plugins: { 'import-x': importX },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: serverLayers }],
    },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks, 'jsx-a11y': jsxA11y },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...jsxA11y.flatConfigs.recommended.rules,
    },
  },
  {
    files: [
      'apps/server/src/server.ts',
      'apps/server/src/import.ts',
      'apps/server/src/mfa-rekey.ts',
      'apps/server/src/content-export.ts',
      'apps/server/src/integration-client.ts',
      'apps/server/src/module-map.ts',
      'apps/server/scripts/**',
      'bench/**',
      'scripts/**',
      'e2e/**',
    ],
    rules: { 'no-console': 'off' },
  },
);
