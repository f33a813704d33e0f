/** Timeouts as the idle detector sets them (idle-detector.ts). */
export interface Timers {
  setTimeout(fn: () => void, delay: number): number;
  clearTimeout(id: number): void;
}

/** How often pending timeouts are checked against the wall clock while any is pending. */
const CHECK_EVERY_MS = 1000;

interface Pending {
  deadline: number;
  native: ReturnType<typeof setTimeout>;
  fn: () => void;
}

/**
 * Timers for the idle detector that keep to the wall clock (decision 021).
 *
 * A browser's setTimeout counts time the computer is awake: a laptop shut two minutes into a 15-minute
 * idle period and opened an hour later fires the timeout 13 minutes after waking, so a session left on a
 * library computer outlives its idle time by the whole sleep. Each timeout here also has a deadline on
 * the wall clock (Date.now), checked every second while one is pending and whenever the page is shown
 * or focused again: a deadline that passed while asleep fires within a second of waking. The native
 * timeout still fires on time when nothing sleeps (and in a background tab, where one long timeout is
 * not throttled the way a repeating check is).
 */
export function createWallClockTimers(): Timers {
  const pending = new Map<number, Pending>();
  let nextId = 1;
  let watchdog: ReturnType<typeof setInterval> | null = null;

  const fire = (id: number) => {
    const entry = pending.get(id);
    if (!entry) return;
    pending.delete(id);
    clearTimeout(entry.native);
    stopWatchingIfIdle();
    entry.fn();
  };

  const check = () => {
    const now = Date.now();
    for (const [id, entry] of [...pending]) if (now >= entry.deadline) fire(id);
  };

  const onShown = () => {
    if (document.visibilityState === 'visible') check();
  };

  const startWatching = () => {
    if (watchdog !== null) return;
    watchdog = setInterval(check, CHECK_EVERY_MS);
    document.addEventListener('visibilitychange', onShown);
    window.addEventListener('focus', check);
    window.addEventListener('pageshow', check);
  };

  function stopWatchingIfIdle() {
    if (pending.size > 0 || watchdog === null) return;
    clearInterval(watchdog);
    watchdog = null;
    document.removeEventListener('visibilitychange', onShown);
    window.removeEventListener('focus', check);
    window.removeEventListener('pageshow', check);
  }

  return {
    setTimeout(fn, delay) {
      const id = nextId++;
      const wait = Math.max(0, delay);
      pending.set(id, { deadline: Date.now() + wait, native: setTimeout(() => fire(id), wait), fn });
      startWatching();
      return id;
    },
    clearTimeout(id) {
      const entry = pending.get(id);
      if (!entry) return;
      pending.delete(id);
      clearTimeout(entry.native);
      stopWatchingIfIdle();
    },
  };
}
