import { rm } from 'node:fs/promises';

/** Removes the e2e server's temporary data directory once the server has stopped. */
export default async function globalTeardown(): Promise<void> {
  const dir = process.env['PORTAL_E2E_DATA_DIR'];
  if (dir && dir.includes('portal-e2e-')) await rm(dir, { recursive: true, force: true });
}
