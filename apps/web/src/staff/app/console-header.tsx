import { Link } from 'react-router';
import type { MouseEvent } from 'react';
import { texts } from '../content/texts';
import { consolePaths } from '../lib/paths';
import type { ConsoleSession } from '../session/staff-session';

export const MAIN_ID = 'main-content';

/** Moves focus (not only the scroll position) to the main content, as the portal's skip links do. */
function skipToMain(event: MouseEvent<HTMLAnchorElement>) {
  const main = document.getElementById(MAIN_ID);
  if (!main) return;
  event.preventDefault();
  main.focus();
  main.scrollIntoView?.({ block: 'start' });
}

/**
 * The console's header: the skip link, the console's name (home: Find a customer), who is signed in with
 * their roles, and Sign out.
 */
export function ConsoleHeader({
  session,
  onSignOut,
  signingOut,
}: {
  session: ConsoleSession | null;
  onSignOut?: () => void;
  signingOut?: boolean;
}) {
  return (
    <>
      <div className="skip-links">
        <a className="skip-link" href={`#${MAIN_ID}`} onClick={skipToMain}>
          {texts.skipToContent}
        </a>
      </div>
      <header className="staff-header">
        <div className="container staff-header__inner">
          <Link to={consolePaths.find} className="logo">
            <span className="logo__mark" aria-hidden="true">
              M
            </span>
            <span className="logo__text">
              {texts.siteName} <span className="staff-header__app">{texts.consoleName}</span>
            </span>{' '}
            <span className="visually-hidden">{texts.homeLink}</span>
          </Link>
          {session ? (
            <div className="staff-header__who">
              <p className="staff-header__member">
                <span className="visually-hidden">{texts.signedInAs} </span>
                <strong>{session.member.name}</strong>
                <br />
                <span className="visually-hidden">{texts.rolesLabel}: </span>
                {session.member.roles.map((role) => texts.roles[role]).join(', ')}
              </p>
              {onSignOut ? (
                <button
                  type="button"
                  className="staff-header__sign-out"
                  aria-busy={signingOut ? true : undefined}
                  onClick={onSignOut}
                >
                  {texts.signOut}
                </button>
              ) : null}
            </div>
          ) : null}
        </div>
      </header>
    </>
  );
}
