import { staffOpenCustomerCall, type StaffCustomerView } from '@portal/contracts/staff';
import { useEffect, useRef, useState, type RefObject } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { NotificationBanner } from '../../../components/ui/notification-banner';
import { fillPlaceholders } from '../../../lib/forms/fill-placeholders';
import { failureText, type FailureText } from '../../content/call-errors';
import { Loading, NotForRole } from '../../content/page-states';
import { ReasonStep } from '../../content/reason-step';
import { texts } from '../../content/texts';
import { useConsoleTitle } from '../../content/use-console-title';
import { consolePaths, reasonOf, type ReasonState } from '../../lib/paths';
import { mayCall, staffCall, useConsoleSession } from '../../session/staff-session';
import { RecordActions } from './record-actions';
import { SharedViewPanel } from './shared-view-panel';
import { IdentityDetails, PoliciesInBrief, RecentActivity, StateAtAGlance } from './record-view';

type Result = { key: string; view: StaffCustomerView } | { key: string; failure: FailureText };

/**
 * A customer's record (issue 41 points 4 and 5): opened with the reason it was found with (asked for
 * first when the page was reached without one), their state at a glance, the actions this staff member
 * may take, their policies and their recent account activity.
 */
export function CustomerRecordPage() {
  const session = useConsoleSession();
  const { customerId = '' } = useParams();
  const location = useLocation();
  const navigate = useNavigate();
  const reason = reasonOf(location.state);
  const allowed = mayCall(session, staffOpenCustomerCall);
  const key = `${location.key}|${customerId}|${reason ?? ''}`;
  const [result, setResult] = useState<Result | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  // Opening a record is audited, so it is opened once per visit to the page: the open under way (or done)
  // for this history entry is reused when the effect runs again (React's development double mount).
  const opened = useRef<{ key: string; answer: Promise<StaffCustomerView> } | null>(null);

  useEffect(() => {
    if (!allowed || !reason) return;
    let live = true;
    if (opened.current?.key !== key) {
      opened.current = {
        key,
        answer: staffCall(staffOpenCustomerCall, { params: { customerId }, body: { reason } }),
      };
    }
    opened.current.answer.then(
      (view) => live && setResult({ key, view }),
      (error: unknown) => live && setResult({ key, failure: failureText(error) }),
    );
    return () => {
      live = false;
    };
  }, [allowed, key, customerId, reason]);

  const current = result?.key === key ? result : null;
  const loaded = current && 'view' in current;
  // The record's heading once it is there: the page's start for keyboard and screen reader users.
  useEffect(() => {
    if (loaded) heading.current?.focus();
  }, [loaded]);

  if (!allowed) return <NotForRole />;
  if (!reason) {
    return (
      <ReasonStep
        title={texts.reasonStep.title}
        onReason={(given) =>
          void navigate(location.pathname, { replace: true, state: { reason: given } satisfies ReasonState })
        }
      />
    );
  }
  return <RecordScreen current={current} reason={reason} heading={heading} onUpdated={setResult} />;
}

function RecordScreen({
  current,
  reason,
  heading,
  onUpdated,
}: {
  current: Result | null;
  reason: string;
  heading: RefObject<HTMLHeadingElement | null>;
  onUpdated: (result: Result) => void;
}) {
  const view = current && 'view' in current ? current.view : null;
  useConsoleTitle(view ? view.name : current ? texts.record.failed : texts.record.opening);
  const back = (
    <p>
      <Link to={consolePaths.find}>{texts.record.back}</Link>
    </p>
  );
  if (!current) return <Loading text={texts.record.opening} />;
  if (!view) {
    const failure = 'failure' in current ? current.failure : null;
    return (
      <>
        {back}
        <h1>{texts.record.failed}</h1>
        <NotificationBanner title={texts.actions.failedTitle} focusOnMount>
          <p>{failure?.message}</p>
        </NotificationBanner>
      </>
    );
  }
  return (
    <>
      {back}
      <span className="staff-caption">
        {fillPlaceholders(texts.record.caption, { customerId: view.customerId })}
      </span>
      <h1 ref={heading} tabIndex={-1}>
        {view.name}
      </h1>
      <p className="staff-reason">{fillPlaceholders(texts.record.reasonShown, { reason })}</p>
      <IdentityDetails view={view} />
      <StateAtAGlance view={view} />
      <RecordActions
        view={view}
        reason={reason}
        onUpdated={(next) => onUpdated({ key: current.key, view: next })}
      />
      <SharedViewPanel view={view} reason={reason} />
      <PoliciesInBrief view={view} />
      <RecentActivity view={view} />
    </>
  );
}
