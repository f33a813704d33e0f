import { readStored, transportKeys, writeStored } from './browser-storage';

/** Used only when session storage refuses to keep the id, so it stays stable for the life of the page. */
let unstoredId: string | undefined;

/** The X-SessionId of this tab: a random UUID kept in session storage, generated when missing. */
export function getSessionId(): string {
  const stored = readStored('session', transportKeys.sessionId);
  if (stored) return stored;
  const id = crypto.randomUUID();
  writeStored('session', transportKeys.sessionId, id);
  if (readStored('session', transportKeys.sessionId) === id) return id;
  unstoredId ??= id;
  return unstoredId;
}
