import { createHash } from 'node:crypto';
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
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

/**
 * The installed packages' fingerprint: a hash of package-lock.json. npm rewrites the lockfile at every
 * install, changed or not, so its modification time cannot tell whether the packages changed.
 */
const lockfileHashes = new Map();
export function lockfileHash(root) {
  // Asked for by both the web and the server check of one start: read and hash the file once.
  if (!lockfileHashes.has(root)) {
    lockfileHashes.set(
      root,
      readFile(path.join(root, 'package-lock.json')).then(
        (bytes) => createHash('sha256').update(bytes).digest('hex'),
        () => 'none',
      ),
    );
  }
  return lockfileHashes.get(root);
}

/** Whether a build's stamp (written by writeLockfileStamp after it) names other packages than now. */
export async function lockfileChangedSince(stampFile, root) {
  try {
    return (await readFile(stampFile, 'utf8')).trim() !== (await lockfileHash(root));
  } catch {
    return true;
  }
}

export async function writeLockfileStamp(stampFile, root) {
  await writeFile(stampFile, `${await lockfileHash(root)}\n`);
}
