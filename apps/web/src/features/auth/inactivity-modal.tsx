import { useEffect, useId, useRef, useState } from 'react';
import { DEFAULT_EVENTS, useIdleTimer, type EventsType } from 'react-idle-timer';
import { Button } from '../../components/ui/button';
import { Countdown } from '../../components/ui/countdown';
import { Modal } from '../../components/ui/modal';
import type { SiteSettings } from '@portal/contracts/content';
import { useOptionalSiteSettings } from '../../content/use-site-settings';
import { fillPlaceholders } from '../../lib/forms/fill-placeholders';
import { signOut } from '../../session/sign-out';
import { openIdleChannel, type IdleChannel } from './idle-channel';
import { createWallClockTimers } from './wall-clock-timers';
import { useAuthSnapshot } from '../../session/session-store';

/**
 * Spec customer-data section 9. eventsThrottle and the debounce are passed explicitly. Tabs keep each
 * other alive through the portal's own channel (activity sent at most once a second), not the idle
 * timer's cross-tab registry, which waits for every tab it has ever heard from (decision 021).
 */
const IDLE_TIMER = {
  actionDebounceMs: 250,
  eventsThrottleMs: 200,
  ignoreMouseMoveMs: 200,
  shareActivityEveryMs: 1000,
} as const;

/** One set for the page: the idle timer keeps the timers it is given for every instance. */
const wallClockTimers = createWallClockTimers();

const ACTIVITY_EVENTS: EventsType[] = [...DEFAULT_EVENTS];
// A pointer resting on the page produces a mousemove as content shifts under it on load; that is not
// the customer coming back, so mouse movement counts only once the timer has run a moment.
const EVENTS_WITHOUT_MOUSE_MOVE = ACTIVITY_EVENTS.filter((e) => e !== 'mousemove');

/**
 * The inactivity warning (spec sections 4 and 9): for a signed-in customer, when idle time is configured
 * above zero, a modal appears after that many idle minutes with a countdown (default 60 s) that screen
 * readers hear at intervals. Staying resets the timer in every tab; signing out, or the countdown
 * reaching zero, signs out every tab. Activity in any tab keeps all of them alive (cross-tab timers).
 */
export function InactivityModal() {
  const settings = useOptionalSiteSettings();
  const { isAuthenticated } = useAuthSnapshot();
  const generation = useRestartAfterUnloadAbandoned();
  const minutes = settings?.idleTimeoutMinutes ?? 0;
  if (!settings || !isAuthenticated || minutes <= 0) return null;
  // Mounted only while it applies: react-idle-timer does not restart reliably when re-enabled.
  return (
    <IdleSession
      key={`${minutes}:${settings.idleCountdownSeconds}:${generation}`}
      minutes={minutes}
      countdownSeconds={settings.idleCountdownSeconds}
      texts={settings.idleModal}
      loginPath={settings.loginPage}
    />
  );
}

/**
 * The idle timer stops itself on `beforeunload`. When the page stays after all (an unload cancelled, or
 * the page kept in the back-forward cache and shown again by Back), nothing would restart it and the
 * session would never time out: a task queued at `beforeunload` runs only if the page is still alive (at
 * once, or when it is shown again), and starts a new timer.
 */
function useRestartAfterUnloadAbandoned(): number {
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    let pending: ReturnType<typeof setTimeout> | undefined;
    const onBeforeUnload = () => {
      clearTimeout(pending);
      pending = setTimeout(() => setGeneration((g) => g + 1), 0);
    };
    const onPageShow = (event: PageTransitionEvent) => {
      if (event.persisted) setGeneration((g) => g + 1);
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    window.addEventListener('pageshow', onPageShow);
    return () => {
      clearTimeout(pending);
      window.removeEventListener('beforeunload', onBeforeUnload);
      window.removeEventListener('pageshow', onPageShow);
    };
  }, []);
  return generation;
}

interface IdleSessionProps {
  minutes: number;
  countdownSeconds: number;
  texts: SiteSettings['idleModal'];
  loginPath: string;
}

function IdleSession({ minutes, countdownSeconds, texts, loginPath }: IdleSessionProps) {
  const [open, setOpen] = useState(false);
  const [watchMouse, setWatchMouse] = useState(false);
  const [startSeconds, setStartSeconds] = useState(countdownSeconds);
  const countdownId = useId();
  const stayRef = useRef<HTMLButtonElement>(null);
  const channel = useRef<IdleChannel | null>(null);

  useEffect(() => {
    const timer = setTimeout(() => setWatchMouse(true), IDLE_TIMER.ignoreMouseMoveMs);
    return () => clearTimeout(timer);
  }, []);

  const timeOut = () => {
    setOpen(false);
    void signOut({ reason: 'idle', loginPath });
  };

  const idle = useIdleTimer({
    timeout: minutes * 60_000 + countdownSeconds * 1000,
    promptBeforeIdle: countdownSeconds * 1000,
    timers: wallClockTimers,
    onPrompt: (_event, timer) => {
      // Time left by the wall clock: less than the whole countdown when the warning was due while the
      // computer slept, and none (sign out now) when the countdown would have ended too.
      const remaining = timer ? Math.ceil(timer.getRemainingTime() / 1000) : countdownSeconds;
      if (remaining <= 0) {
        timeOut();
        return;
      }
      setStartSeconds(Math.min(remaining, countdownSeconds));
      setOpen(true);
    },
    onActive: () => setOpen(false),
    onIdle: timeOut,
    // Activity (never while the warning shows: only "Stay signed in" answers it) keeps the other tabs alive.
    onAction: (_event, timer) => {
      if (!timer?.isPrompted()) channel.current?.shareActivity();
    },
    throttle: IDLE_TIMER.shareActivityEveryMs,
    events: watchMouse ? ACTIVITY_EVENTS : EVENTS_WITHOUT_MOUSE_MOVE,
    eventsThrottle: IDLE_TIMER.eventsThrottleMs,
  });

  const { activate } = idle;
  useEffect(() => {
    const opened = openIdleChannel(() => activate());
    channel.current = opened;
    return () => {
      channel.current = null;
      opened.close();
    };
  }, [activate]);

  const stay = () => {
    // Closes this tab's warning (onActive) and, through the channel, every other tab's.
    activate();
    channel.current?.shareActivity();
    setOpen(false);
  };
  const leave = () => {
    setOpen(false);
    void signOut({ reason: 'user', loginPath });
  };

  return (
    // A dialog, not an alert dialog: an alert dialog is announced again as its content changes, so the
    // countdown was heard twice, once with its own live region. Opening reads the title and the sentence
    // (the description); the countdown's region alone speaks at its announce points.
    <Modal
      open={open}
      title={texts.heading}
      role="dialog"
      dismissible={false}
      describedBy={countdownId}
      initialFocusRef={stayRef}
    >
      <p>
        <Countdown
          key={startSeconds}
          id={countdownId}
          seconds={startSeconds}
          onComplete={timeOut}
          text={(seconds) => fillPlaceholders(texts.bodyText, { seconds })}
        />
      </p>
      <div className="cta-list">
        <Button ref={stayRef} onClick={stay}>
          {texts.staySignedInText}
        </Button>
        <Button variant="secondary" onClick={leave}>
          {texts.signOutText}
        </Button>
      </div>
    </Modal>
  );
}
