import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';

/**
 * The newest modification time (ms) among the given files and everything under the given directories,
 * skipping node_modules and dist. Missing paths count as 0. `accept(file)` filters files.
 */
export async function newestMtime(paths, accept = () => true) {
  let newest = 0;
  async function visit(p) {
    let info;
    try {
      info = await stat(p);
    } catch {
      return;
    }
    if (info.isDirectory()) {
      const base = path.basename(p);
      if (base === 'node_modules' || base === 'dist') return;
      const entries = await readdir(p);
      await Promise.all(entries.map((entry) => visit(path.join(p, entry))));
    } else if (accept(p)) {
      newest = Math.max(newest, info.mtimeMs);
    }
  }
  await Promise.all(paths.map(visit));
  return newest;
}
