import { useEffect, useId, useRef, useState } from 'react';
import { Button } from '../../components/ui/button';
import { defaultAnnounceAt, formatSeconds } from '../../components/ui/countdown';
import { Modal } from '../../components/ui/modal';
import { texts } from '../content/texts';
import { readSession, signInAgain, type ConsoleSession } from '../session/staff-session';

/** The warning shows this long before the session ends. */
const WARN_BEFORE_MS = 2 * 60_000;
/** How often the clock is read: a computer that slept is caught up within this. */
const TICK_MS = 1000;

/**
 * Warns before the staff session ends (issue 41): 2 minutes before its idle time is up (15 minutes after
 * the last call by default), or before its 8 hours are. "Stay signed in" asks the server who is signed in,
 * which restarts its idle time. When the time is up, the server is asked once more (another console tab
 * may have kept the session alive; a 401 sends the browser to sign in); at the 8 hours' end the console
 * goes to sign in.
 */
export function IdleWarning({ session, onSignOut }: { session: ConsoleSession; onSignOut: () => void }) {
  const [now, setNow] = useState(() => Date.now());
  const [continuedFor, setContinuedFor] = useState<number | null>(null);
  const [checking, setChecking] = useState(false);
  const checkedFor = useRef<number | null>(null);
  const describedBy = useId();
  const stayButton = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), TICK_MS);
    return () => clearInterval(timer);
  }, []);

  const ending = session.endsAt <= session.idleEndsAt;
  const deadline = ending ? session.endsAt : session.idleEndsAt;

  useEffect(() => {
    if (now < deadline || checkedFor.current === deadline) return;
    checkedFor.current = deadline;
    if (ending) {
      signInAgain();
      return;
    }
    // A session still alive (another tab's calls) answers with its end; one that ended answers 401, and the
    // call signs in. Only a check: it does not itself keep the session alive.
    readSession({ passive: true }).catch(() => signInAgain());
  }, [now, deadline, ending]);

  const open = now >= deadline - WARN_BEFORE_MS && now < deadline && continuedFor !== deadline;
  const secondsLeft = Math.max(0, Math.ceil((deadline - now) / 1000));
  // Said to screen readers when it opens, then at the countdown's usual points only (each 15 s, then 10
  // and 5), not every second.
  const [openedWith, setOpenedWith] = useState<{ deadline: number; seconds: number } | null>(null);
  if (open && openedWith?.deadline !== deadline) setOpenedWith({ deadline, seconds: secondsLeft });
  const from = openedWith?.deadline === deadline ? openedWith.seconds : secondsLeft;
  let announced = from;
  for (let s = from - 1; s >= secondsLeft; s -= 1)
    if (defaultAnnounceAt(s, WARN_BEFORE_MS / 1000)) announced = s;

  const stay = async () => {
    setChecking(true);
    try {
      await readSession();
    } catch {
      signInAgain();
    } finally {
      setChecking(false);
    }
  };

  const w = texts.idle;
  return (
    <Modal
      open={open}
      title={ending ? w.endTitle : w.title}
      role="alertdialog"
      dismissible={false}
      describedBy={describedBy}
      initialFocusRef={stayButton}
    >
      <p id={describedBy}>
        {ending ? w.endBody : w.body}{' '}
        <span className="ui-countdown">
          <span aria-hidden="true">{formatSeconds(secondsLeft)}</span>
          <span className="ui-visually-hidden" aria-live="polite" aria-atomic="true">
            {formatSeconds(announced)}
          </span>
        </span>
        .
      </p>
      <div className="staff-button-group">
        {ending ? (
          <Button ref={stayButton} onClick={() => setContinuedFor(deadline)}>
            {w.endContinue}
          </Button>
        ) : (
          <Button ref={stayButton} submitting={checking} onClick={() => void stay()}>
            {w.stay}
          </Button>
        )}
        <Button variant="secondary" onClick={onSignOut}>
          {w.signOut}
        </Button>
      </div>
    </Modal>
  );
}
