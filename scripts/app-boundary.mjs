/**
 * The customers' app and the staff console are two builds of one web workspace (decision 038): the
 * customers' (apps/web/index.html, vite.config.ts) and the console's (apps/web/staff.html,
 * vite.staff.config.ts). Neither may carry the other's code: no chunk of the customers' build holds a
 * module of src/staff/, so no customer page ever loads staff code, and no chunk of the console's holds a
 * module of the customers' own layers (src/app, src/features, src/content, src/session and their entries).
 * Both share what is below those layers: src/components, src/lib, src/styles, the contracts and the
 * content files. Each build checks its own output with `appBoundary` and fails on a crossing; lint
 * (eslint.config.js) refuses the import before it gets that far.
 */
import path from 'node:path';

/** Modules of the customers' app alone, by path from apps/web. */
const customerOnly = /^src\/(?:(?:app|features|content|session)\/|(?:main|entry-server)\.tsx$)/;
/** Modules of the staff console alone, by path from apps/web. */
const staffOnly = /^src\/staff\//;

/** What a build of `app` must not hold. */
const forbiddenIn = { customer: staffOnly, staff: customerOnly };

/**
 * The crossings in a build's chunks: one line per chunk and module of the other app. `chunks` name their
 * modules by path from apps/web (with `/`); anything outside it (packages, the contracts) is shared.
 */
export function boundaryProblems(app, chunks) {
  const forbidden = forbiddenIn[app];
  if (!forbidden) throw new Error(`unknown app ${app}`);
  const problems = [];
  for (const chunk of chunks) {
    for (const id of chunk.moduleIds) {
      if (forbidden.test(id)) problems.push(`${chunk.fileName} holds ${id}`);
    }
  }
  return problems;
}

/** A module id as boundaryProblems reads it: its path from the web root, without a query or a NUL prefix. */
function relativeId(webRoot, id) {
  const file = id.replace(/^\0/, '').split('?')[0];
  return path.isAbsolute(file) ? path.relative(webRoot, file).split(path.sep).join('/') : file;
}

/** A Vite plugin failing the build of `app` ('customer' or 'staff') when a chunk holds the other's code. */
export function appBoundary(app, webRoot) {
  return {
    name: 'portal:app-boundary',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle)
        .filter((output) => output.type === 'chunk')
        .map((chunk) => ({
          fileName: chunk.fileName,
          moduleIds: chunk.moduleIds.map((id) => relativeId(webRoot, id)),
        }));
      const problems = boundaryProblems(app, chunks);
      if (problems.length > 0) {
        this.error(
          `The ${app === 'staff' ? "staff console's" : "customers'"} build holds the other app's code ` +
            `(decision 038):\n  ${problems.join('\n  ')}`,
        );
      }
    },
  };
}
