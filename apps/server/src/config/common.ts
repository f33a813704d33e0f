import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

/*
 * What every area's settings use: the error a bad setting stops the start with, the URL types, and the
 * repository root that default directories are under.
 */

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');

export const url = z.url({ protocol: /^https?$/ });
export const optionalUrl = url.optional();

export class ConfigError extends Error {}
