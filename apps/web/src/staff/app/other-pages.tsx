import { useEffect, useRef, type ReactNode } from 'react';
import { Link, useRouteError } from 'react-router';
import { texts } from '../content/texts';
import { useConsoleTitle } from '../content/use-console-title';
import { consolePaths, signInPath } from '../lib/paths';
import { ConsoleHeader, MAIN_ID } from './console-header';

/** A page of the console without a session: the header without a member, and the page. */
function Frame({ children }: { children: ReactNode }) {
  return (
    <div className="app staff">
      <ConsoleHeader session={null} />
      <main id={MAIN_ID} className="main staff-main" tabIndex={-1}>
        <div className="container">{children}</div>
      </main>
    </div>
  );
}

/** After signing out: nothing of the session is left here; "Sign in again" starts a new one. */
export function SignedOutPage() {
  useConsoleTitle(texts.signedOut.title);
  // Arrived at from Sign out: its heading is where a keyboard or screen reader user now starts.
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <Frame>
      <h1 ref={heading} tabIndex={-1}>
        {texts.signedOut.title}
      </h1>
      <p>{texts.signedOut.body}</p>
      <p>
        <a className="button" href={signInPath}>
          {texts.signedOut.signIn}
        </a>
      </p>
    </Frame>
  );
}

export function NotFoundPage() {
  useConsoleTitle(texts.notFound.title);
  return (
    <>
      <h1>{texts.notFound.title}</h1>
      <p>{texts.notFound.body}</p>
      <p>
        <Link to={consolePaths.find}>{texts.notFound.back}</Link>
      </p>
    </>
  );
}

/** A page that failed to load or render (its code could not be fetched after a release, say). */
export function RouteErrorPage() {
  const error = useRouteError();
  console.error(error instanceof Error ? error.message : 'A console page failed');
  useConsoleTitle(texts.routeError.title);
  return (
    <Frame>
      <h1>{texts.routeError.title}</h1>
      <p>{texts.routeError.body}</p>
      <p>
        <a className="button" href={window.location.href}>
          {texts.routeError.reload}
        </a>
      </p>
    </Frame>
  );
}
