import { listContentItemsCall, getOperationsCall } from '@portal/contracts/staff-content';
import { staffSearchCall } from '@portal/contracts/staff';
import { Navigate, NavLink } from 'react-router';
import { contentTexts } from '../content/content-texts';
import { FindCustomerPage } from '../features/find-customer/find-customer-page';
import { consolePaths } from '../lib/paths';
import { mayCall, useConsoleSession, type ConsoleSession } from '../session/staff-session';

const t = contentTexts.nav;

/** The console's sections the staff member's roles open: finding customers, the site's content, operations. */
function sectionsOf(session: ConsoleSession | null) {
  return [
    mayCall(session, staffSearchCall) ? { to: consolePaths.find, label: t.find } : null,
    mayCall(session, listContentItemsCall) ? { to: '/content', label: t.content } : null,
    mayCall(session, getOperationsCall) ? { to: '/operations', label: t.operations } : null,
  ].filter((s) => s !== null);
}

/** The sections as links, when there is more than one to choose from (issue 42). */
export function ConsoleNav({ session }: { session: ConsoleSession | null }) {
  const sections = sectionsOf(session);
  if (sections.length < 2) return null;
  return (
    <nav className="staff-nav" aria-label={t.label}>
      <div className="container">
        <ul className="staff-nav__list">
          {sections.map((s) => (
            <li key={s.to}>
              <NavLink to={s.to} end={s.to === consolePaths.find} className="staff-nav__link">
                {s.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </div>
    </nav>
  );
}

/**
 * The console's first page: Find a customer for the contact centre; for a member who does not find
 * customers, their own first section (the site's content, or operations for an operator).
 */
export function ConsoleHome() {
  const session = useConsoleSession();
  if (mayCall(session, staffSearchCall)) return <FindCustomerPage />;
  if (mayCall(session, getOperationsCall)) return <Navigate to="/operations" replace />;
  if (mayCall(session, listContentItemsCall)) return <Navigate to="/content" replace />;
  return <FindCustomerPage />;
}
