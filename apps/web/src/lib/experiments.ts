import { experimentUserIdKey, readStored, writeStored } from './browser-storage';

let unstoredUserId: string | undefined;

/** The server's copy of the id (decision 016): it renders a page's experiment with the same variant. */
function cookieUserId(): string | undefined {
  const match = /(?:^|;\s*)experimentUserId=([0-9a-f-]{36})(?:;|$)/i.exec(document.cookie);
  return match?.[1];
}

function mirrorToCookie(id: string): void {
  const secure = window.location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = `${experimentUserIdKey}=${id}; Path=/; Max-Age=31536000; SameSite=Lax${secure}`;
}

/**
 * The persistent random id experiments bucket this browser by (local storage `experimentUserId`). A
 * browser without one takes the id the server chose when it rendered the page (its cookie), so the
 * variant the page was rendered with stays; the cookie always carries the stored id for the next page.
 */
export function getExperimentUserId(): string {
  const fromCookie = cookieUserId();
  const stored = readStored('local', experimentUserIdKey);
  const id = stored ?? unstoredUserId ?? fromCookie ?? crypto.randomUUID();
  if (!stored) writeStored('local', experimentUserIdKey, id);
  if (fromCookie !== id) mirrorToCookie(id);
  if (stored || readStored('local', experimentUserIdKey) === id) return id;
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
