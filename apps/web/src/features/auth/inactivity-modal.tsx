import { useEffect, useId, useRef, useState } from 'react';
import { DEFAULT_EVENTS, useIdleTimer, type EventsType } from 'react-idle-timer';
import { Button } from '../../components/ui/button';
import { Countdown } from '../../components/ui/countdown';
import { Modal } from '../../components/ui/modal';
import type { SiteSettings } from '@portal/contracts/content';
import { useOptionalSiteSettings } from '../../content/use-site-settings';
import { fillPlaceholders } from '../../lib/forms/fill-placeholders';
import { signOut } from '../../session/sign-out';
import { useAuthSnapshot } from '../../session/session-store';

/**
 * Spec customer-data section 9. eventsThrottle is passed explicitly; the cross-tab leader election's
 * fallback interval (2000 ms) and response time (100 ms) are react-idle-timer's own defaults, and a
 * closed tab leaves the channel when it unloads (the 60 s removal of older versions is not needed).
 */
const IDLE_TIMER = {
  actionDebounceMs: 250,
  eventsThrottleMs: 200,
  ignoreMouseMoveMs: 200,
  syncTimersMs: 200,
  defaultCountdownSeconds: 60,
  crossTabFallbackIntervalMs: 2000,
  crossTabResponseTimeMs: 100,
  crossTabRemoveTimeoutMs: 60_000,
} as const;

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
  const minutes = settings?.idleTimeoutMinutes ?? 0;
  if (!settings || !isAuthenticated || minutes <= 0) return null;
  // Mounted only while it applies: react-idle-timer does not restart reliably when re-enabled.
  return (
    <IdleSession
      key={`${minutes}:${settings.idleCountdownSeconds}`}
      minutes={minutes}
      countdownSeconds={settings.idleCountdownSeconds}
      texts={settings.idleModal}
      loginPath={settings.loginPage}
    />
  );
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

  useEffect(() => {
    const timer = setTimeout(() => setWatchMouse(true), IDLE_TIMER.ignoreMouseMoveMs);
    return () => clearTimeout(timer);
  }, []);

  const idle = useIdleTimer({
    timeout: minutes * 60_000 + countdownSeconds * 1000,
    promptBeforeIdle: countdownSeconds * 1000,
    onPrompt: (_event, timer) => {
      const remaining = timer ? Math.ceil(timer.getRemainingTime() / 1000) : countdownSeconds;
      setStartSeconds(remaining > 0 ? remaining : countdownSeconds);
      setOpen(true);
    },
    onActive: () => setOpen(false),
    onIdle: () => {
      setOpen(false);
      void signOut({ reason: 'idle', loginPath });
    },
    events: watchMouse ? ACTIVITY_EVENTS : EVENTS_WITHOUT_MOUSE_MOVE,
    debounce: IDLE_TIMER.actionDebounceMs,
    eventsThrottle: IDLE_TIMER.eventsThrottleMs,
    crossTab: true,
    syncTimers: IDLE_TIMER.syncTimersMs,
    name: 'portal-inactivity',
  });

  const stay = () => {
    // activate() is replicated to every tab, which closes their modals too (onActive).
    idle.activate();
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
