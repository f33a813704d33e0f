import { Link } from 'react-router';
import { consolePaths } from '../lib/paths';
import { texts } from './texts';
import { useConsoleTitle } from './use-console-title';

/** A page the staff member's roles do not open (the server refuses its calls too). */
export function NotForRole() {
  useConsoleTitle(texts.notForRole.title);
  return (
    <>
      <h1>{texts.notForRole.title}</h1>
      <p>{texts.notForRole.body}</p>
      <p>
        <Link to={consolePaths.find}>{texts.notForRole.back}</Link>
      </p>
    </>
  );
}

/** Said while a page's data is on its way (a polite status, read once). */
export function Loading({ text }: { text: string }) {
  return (
    <p className="staff-loading" role="status">
      {text}
    </p>
  );
}
