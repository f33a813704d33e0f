import { readSession, sessionKeys, writeSession } from './storage-keys';

/** Used only when session storage refuses to keep the id, so it stays stable for the life of the page. */
let unstoredId: string | undefined;

/** The X-SessionId of this tab: a random UUID kept in session storage, generated when missing. */
export function getSessionId(): string {
  const stored = readSession(sessionKeys.sessionId);
  if (stored) return stored;
  const id = crypto.randomUUID();
  writeSession(sessionKeys.sessionId, id);
  if (readSession(sessionKeys.sessionId) === id) return id;
  unstoredId ??= id;
  return unstoredId;
}
