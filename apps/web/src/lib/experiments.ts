import { experimentUserIdKey, readStored, writeStored } from './browser-storage';

let unstoredUserId: string | undefined;

/** The persistent random id experiments bucket this browser by (local storage `experimentUserId`). */
export function getExperimentUserId(): string {
  const stored = readStored('local', experimentUserIdKey);
  if (stored) return stored;
  const id = crypto.randomUUID();
  writeStored('local', experimentUserIdKey, id);
  if (readStored('local', experimentUserIdKey) === id) return id;
  unstoredUserId ??= id;
  return unstoredUserId;
}

/** FNV-1a, 32 bit: small, fast and evenly spread enough for bucketing. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A number in [0, 1) fixed for this experiment and user. */
export function bucket(experimentKey: string, userId: string): number {
  return hash(`${experimentKey}:${userId}`) / 0x100000000;
}

/**
 * Picks a variant by weight, the same one every time for the same user and experiment. Weights need not
 * add up to 1; they are scaled. All-zero weights pick the first variant.
 */
export function assignVariant<V extends { id: string; weight: number }>(
  experimentKey: string,
  variants: readonly V[],
  userId: string,
): V | undefined {
  if (variants.length === 0) return undefined;
  const total = variants.reduce((sum, v) => sum + Math.max(0, v.weight), 0);
  if (total <= 0) return variants[0];
  let point = bucket(experimentKey, userId) * total;
  for (const variant of variants) {
    point -= Math.max(0, variant.weight);
    if (point < 0) return variant;
  }
  return variants[variants.length - 1];
}
