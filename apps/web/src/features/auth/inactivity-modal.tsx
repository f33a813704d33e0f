import { useEffect, useId, useRef, useState } from 'react';
import { Button } from '../../components/ui/button';
import { Countdown } from '../../components/ui/countdown';
import { Modal } from '../../components/ui/modal';
import type { SiteSettings } from '@portal/contracts/content';
import { useOptionalSiteSettings } from '../../content/use-site-settings';
import { fillPlaceholders } from '../../lib/forms/fill-placeholders';
import { signOut } from '../../session/sign-out';
import { openIdleChannel, type IdleChannel } from './idle-channel';
import { createIdleDetector, type IdleDetector } from './idle-detector';
import { createWallClockTimers } from './wall-clock-timers';
import { useAuthSnapshot } from '../../session/session-store';

/**
 * Spec customer-data section 9, decision 021. Tabs keep each other alive through the portal's own channel
 * (activity sent at most once a second), which waits for no other tab.
 */
const IDLE_DETECTOR = {
  eventsThrottleMs: 200,
  ignoreMouseMoveMs: 200,
  shareEveryMs: 1000,
} as const;

/** One set for the page: every idle period's deadlines are checked by the same watchdog. */
const wallClockTimers = createWallClockTimers();

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
  // Mounted only while it applies, afresh for new settings and after a page that stayed (below).
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
 * A page that stays after `beforeunload` (an unload cancelled, a `tel:` link a computer starts to follow,
 * the page kept in the back-forward cache and shown again by Back) starts a new idle period (decision
 * 021): a task queued at `beforeunload` runs only if the page is still alive (at once, or when it is shown
 * again).
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
  const [startSeconds, setStartSeconds] = useState(countdownSeconds);
  const countdownId = useId();
  const stayRef = useRef<HTMLButtonElement>(null);
  const detector = useRef<IdleDetector | null>(null);
  const channel = useRef<IdleChannel | null>(null);

  const timeOut = () => {
    setOpen(false);
    void signOut({ reason: 'idle', loginPath });
  };
  // The detector calls the latest of these (the sign-in page's address could change with the settings).
  const signOutIdle = useRef(timeOut);
  useEffect(() => {
    signOutIdle.current = timeOut;
  });

  useEffect(() => {
    const idle = createIdleDetector({
      ...IDLE_DETECTOR,
      warnAfterMs: minutes * 60_000,
      countdownMs: countdownSeconds * 1000,
      timers: wallClockTimers,
      // Time left by the wall clock: less than the whole countdown when the warning fell due while the
      // computer slept (none left: the detector signs out instead).
      onWarn: (remainingMs) => {
        setStartSeconds(Math.min(Math.ceil(remainingMs / 1000), countdownSeconds));
        setOpen(true);
      },
      onActive: () => setOpen(false),
      onIdle: () => signOutIdle.current(),
      // Activity here (never while the warning shows: only "Stay signed in" answers it) keeps the other
      // tabs alive.
      onAction: () => channel.current?.shareActivity(),
    });
    const shared = openIdleChannel(() => idle.activate());
    detector.current = idle;
    channel.current = shared;
    return () => {
      detector.current = null;
      channel.current = null;
      idle.stop();
      shared.close();
    };
  }, [minutes, countdownSeconds]);

  const stay = () => {
    // Closes this tab's warning (onActive) and, through the channel, every other tab's.
    detector.current?.activate();
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
