/* global console */
/**
 * Writes .br and .gz beside every compressible file of the web build's assets/, at the strongest
 * settings, once per build. The server sends these as they are (no compression work per request) to
 * clients that accept them; others get the file compressed on the fly or plain. Last step of
 * `npm run build:web`, so it also records which packages the build was made with (dist/packages.sha256),
 * for `npm start`'s check that the build is current.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { promisify } from 'node:util';
import { writeLockfileStamp } from './mtime.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const assets = path.join(root, 'apps', 'web', 'dist', 'assets');
const compressible = /\.(js|mjs|css|svg|json|html|txt|xml|map)$/;
const br = promisify(brotliCompress);
const gz = promisify(gzip);

let files = [];
try {
  files = (await readdir(assets, { recursive: true })).filter((f) => compressible.test(f));
} catch {
  console.warn(`precompress: no ${path.relative(root, assets)} directory; nothing to do`);
}

let before = 0;
let after = 0;
await Promise.all(
  files.map(async (file) => {
    const full = path.join(assets, file);
    const data = await readFile(full);
    if (data.length < 1024) return;
    const [b, g] = await Promise.all([
      br(data, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
          [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
        },
      }),
      gz(data, { level: 9 }),
    ]);
    await Promise.all([writeFile(`${full}.br`, b), writeFile(`${full}.gz`, g)]);
    before += data.length;
    after += b.length;
  }),
);
if (files.length > 0) {
  console.log(
    `precompress: ${files.length} files, ${Math.round(before / 1024)} KB -> ${Math.round(after / 1024)} KB brotli`,
  );
}
await writeLockfileStamp(path.join(root, 'apps', 'web', 'dist', 'packages.sha256'), root);
