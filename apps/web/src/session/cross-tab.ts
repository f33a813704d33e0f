/**
 * Messages between this portal's tabs (same origin only). Tokens live in each tab's session storage, so
 * tabs tell each other when they sign out and when a renewal replaced tokens they share (a duplicated tab
 * starts with a copy of the original's session storage, and refresh tokens rotate: the first tab to use
 * one makes the copy useless, so the new tokens are handed over).
 */
export type CrossTabMessage =
  | { type: 'signed-out'; reason: string }
  | { type: 'tokens-renewed'; previousRefreshToken: string; user: string };

const CHANNEL_NAME = 'portal-auth';

type Listener = (message: CrossTabMessage) => void;

let channel: BroadcastChannel | null | undefined;
const listeners = new Set<Listener>();

function isMessage(value: unknown): value is CrossTabMessage {
  if (!value || typeof value !== 'object') return false;
  const m = value as Record<string, unknown>;
  if (m['type'] === 'signed-out') return typeof m['reason'] === 'string';
  if (m['type'] === 'tokens-renewed')
    return typeof m['previousRefreshToken'] === 'string' && typeof m['user'] === 'string';
  return false;
}

function open(): BroadcastChannel | null {
  if (channel !== undefined) return channel;
  if (typeof BroadcastChannel === 'undefined') {
    channel = null;
    return channel;
  }
  channel = new BroadcastChannel(CHANNEL_NAME);
  channel.onmessage = (event: MessageEvent<unknown>) => {
    if (!isMessage(event.data)) return;
    for (const listener of listeners) listener(event.data);
  };
  return channel;
}

/** Tells every other tab of this portal (the sending tab does not receive its own message). */
export function broadcast(message: CrossTabMessage): void {
  try {
    open()?.postMessage(message);
  } catch {
    // A closed channel (page unloading) has nobody left to tell.
  }
}

export function onCrossTabMessage(listener: Listener): () => void {
  open();
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Closes the channel (tests). */
export function closeCrossTab(): void {
  channel?.close();
  channel = undefined;
  listeners.clear();
}
