/**
 * Activity shared between this portal's signed-in tabs (same origin only), so that a customer working in
 * one tab is not warned, or signed out, by another. A message says only that the customer did something
 * now; each tab restarts its own idle timer on it. Nothing about the customer is sent.
 */
const CHANNEL_NAME = 'portal-activity';
const MESSAGE = 'active';

export interface IdleChannel {
  /** Tells every other tab that the customer was active in this one. */
  shareActivity(): void;
  close(): void;
}

export function openIdleChannel(onOtherTabActive: () => void): IdleChannel {
  if (typeof BroadcastChannel === 'undefined')
    return { shareActivity: () => undefined, close: () => undefined };
  const channel = new BroadcastChannel(CHANNEL_NAME);
  channel.onmessage = (event: MessageEvent<unknown>) => {
    if (event.data === MESSAGE) onOtherTabActive();
  };
  let closed = false;
  return {
    shareActivity() {
      if (closed) return;
      try {
        channel.postMessage(MESSAGE);
      } catch {
        // A page being unloaded has nobody left to tell.
      }
    },
    close() {
      closed = true;
      channel.close();
    },
  };
}
