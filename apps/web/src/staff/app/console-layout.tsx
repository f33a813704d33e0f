import { useEffect, useRef, useState } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { Button } from '../../components/ui/button';
import { NotificationBanner } from '../../components/ui/notification-banner';
import { Loading } from '../content/page-states';
import { forgetLastSearch } from '../features/find-customer/find-customer-page';
import { texts } from '../content/texts';
import { useConsoleTitle } from '../content/use-console-title';
import { consolePaths } from '../lib/paths';
import { readSession, signOutOfConsole, useConsoleSession } from '../session/staff-session';
import { ConsoleHeader, MAIN_ID } from './console-header';
import { ConsoleNav } from './console-nav';
import { IdleWarning } from './idle-warning';

/** On every page change after the first: focus on the new page's heading (or main), as the portal does. */
function useFocusOnPageChange() {
  const { pathname } = useLocation();
  const previous = useRef<string | null>(null);
  useEffect(() => {
    if (previous.current !== null && previous.current !== pathname) {
      window.scrollTo?.({ top: 0, left: 0 });
      const main = document.getElementById(MAIN_ID);
      main?.querySelector<HTMLElement>('h1')?.setAttribute('tabindex', '-1');
      (main?.querySelector<HTMLElement>('h1') ?? main)?.focus({ preventScroll: true });
    }
    previous.current = pathname;
  }, [pathname]);
}

function StartFailed({ onRetry }: { onRetry: () => void }) {
  useConsoleTitle(texts.startFailed.title);
  return (
    <>
      <h1>{texts.startFailed.title}</h1>
      <p>{texts.startFailed.body}</p>
      <Button onClick={onRetry}>{texts.startFailed.retry}</Button>
    </>
  );
}

/**
 * The frame of every signed-in page: the session is read first (no session: to sign in, and back here),
 * then the header with who is signed in, the page, and the idle warning. Signing out ends the session on
 * the server and shows the signed-out page.
 */
export function ConsoleLayout() {
  const session = useConsoleSession();
  const navigate = useNavigate();
  const [start, setStart] = useState<{ failed: boolean; attempt: number }>({ failed: false, attempt: 0 });
  const [signingOut, setSigningOut] = useState<{ busy: boolean; failed: number }>({ busy: false, failed: 0 });
  useFocusOnPageChange();

  useEffect(() => {
    let live = true;
    readSession().catch(() => live && setStart((s) => ({ ...s, failed: true })));
    return () => {
      live = false;
    };
  }, [start.attempt]);

  const signOut = async () => {
    if (signingOut.busy) return;
    setSigningOut((s) => ({ ...s, busy: true }));
    try {
      await signOutOfConsole();
      forgetLastSearch();
      void navigate(consolePaths.signedOut, { replace: true });
    } catch {
      setSigningOut((s) => ({ busy: false, failed: s.failed + 1 }));
    }
  };

  let page;
  if (session) page = <Outlet />;
  else if (start.failed)
    page = <StartFailed onRetry={() => setStart((s) => ({ failed: false, attempt: s.attempt + 1 }))} />;
  else page = <Loading text={texts.loading} />;

  return (
    <div className="app staff">
      <ConsoleHeader session={session} onSignOut={() => void signOut()} signingOut={signingOut.busy} />
      <ConsoleNav session={session} />
      <main id={MAIN_ID} className="main staff-main" tabIndex={-1}>
        <div className="container">
          {signingOut.failed > 0 ? (
            <NotificationBanner key={signingOut.failed} title={texts.actions.failedTitle} focusOnMount>
              <p>{texts.signOutFailed}</p>
            </NotificationBanner>
          ) : null}
          {page}
        </div>
      </main>
      {session ? <IdleWarning session={session} onSignOut={() => void signOut()} /> : null}
    </div>
  );
}
