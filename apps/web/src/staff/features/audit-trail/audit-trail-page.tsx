import { staffAuditTrailCall } from '@portal/contracts/staff';
import { useEffect, useRef, useState } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { Button } from '../../../components/ui/button';
import { NotificationBanner } from '../../../components/ui/notification-banner';
import { fillPlaceholders } from '../../../lib/forms/fill-placeholders';
import type { CallResult } from '../../../lib/api-client';
import { failureText, type FailureText } from '../../content/call-errors';
import { Loading, NotForRole } from '../../content/page-states';
import { ReasonStep } from '../../content/reason-step';
import { texts } from '../../content/texts';
import { useConsoleTitle } from '../../content/use-console-title';
import { ukDateTime } from '../../lib/format';
import { consolePaths, reasonOf, type ReasonState } from '../../lib/paths';
import { mayCall, staffCall, useConsoleSession } from '../../session/staff-session';

type Trail = CallResult<typeof staffAuditTrailCall>;
type Entry = Trail['entries'][number];

const t = texts.audit;

type Result = { key: string; trail: Trail } | { key: string; failure: FailureText };

const detailValue = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

function Outcome({ entry }: { entry: Entry }) {
  if (entry.isSuccess === null) return <>{t.noOutcome}</>;
  if (entry.isSuccess) return <>{t.success}</>;
  return (
    <>
      {entry.failureReason ? fillPlaceholders(t.failureReason, { reason: entry.failureReason }) : t.failure}
    </>
  );
}

/**
 * A customer's audit trail for an auditor (issue 41 point 2): read only, newest first, 50 entries at a
 * time with "Show more" (focus moves to the first entry added, and how many were added is announced).
 * Opened with the reason the customer was found with, or asked for first.
 */
export function AuditTrailPage() {
  const session = useConsoleSession();
  const { customerId = '' } = useParams();
  const location = useLocation();
  const navigate = useNavigate();
  const reason = reasonOf(location.state);
  const allowed = mayCall(session, staffAuditTrailCall);
  const key = `${location.key}|${customerId}|${reason ?? ''}`;
  const [result, setResult] = useState<Result | null>(null);
  const [more, setMore] = useState<{ busy: boolean; failure: FailureText | null; added: number | null }>({
    busy: false,
    failure: null,
    added: null,
  });
  const firstAdded = useRef<HTMLTableRowElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  // Reading a trail is audited: its first page is asked for once per visit (as a record is opened).
  const first = useRef<{ key: string; answer: Promise<Trail> } | null>(null);

  useEffect(() => {
    if (!allowed || !reason) return;
    let live = true;
    if (first.current?.key !== key) {
      first.current = {
        key,
        answer: staffCall(staffAuditTrailCall, { params: { customerId }, body: { reason } }),
      };
    }
    first.current.answer.then(
      (trail) => live && setResult({ key, trail }),
      (error: unknown) => live && setResult({ key, failure: failureText(error) }),
    );
    return () => {
      live = false;
    };
  }, [allowed, key, customerId, reason]);

  const current = result?.key === key ? result : null;
  const trail = current && 'trail' in current ? current.trail : null;
  // The same title the page's part names (the reason step, a role without access) when it shows one.
  useConsoleTitle(
    !allowed
      ? texts.notForRole.title
      : !reason
        ? texts.reasonStep.auditTitle
        : trail
          ? fillPlaceholders(t.titleFor, { name: trail.name })
          : t.title,
  );
  const loaded = trail !== null;
  useEffect(() => {
    if (loaded) heading.current?.focus();
  }, [loaded]);
  useEffect(() => {
    if (more.added) firstAdded.current?.focus();
  }, [more.added]);

  if (!allowed) return <NotForRole />;
  if (!reason) {
    return (
      <ReasonStep
        title={texts.reasonStep.auditTitle}
        onReason={(given) =>
          void navigate(location.pathname, { replace: true, state: { reason: given } satisfies ReasonState })
        }
      />
    );
  }
  const back = (
    <p>
      <Link to={consolePaths.find}>{texts.record.back}</Link>
    </p>
  );
  if (!current) return <Loading text={t.loading} />;
  if (!trail) {
    return (
      <>
        {back}
        <h1>{t.title}</h1>
        <NotificationBanner title={texts.actions.failedTitle} focusOnMount>
          <p>{'failure' in current ? current.failure.message : null}</p>
        </NotificationBanner>
      </>
    );
  }

  const showMore = async () => {
    if (more.busy || !trail.nextCursor) return;
    setMore({ busy: true, failure: null, added: null });
    try {
      const next = await staffCall(staffAuditTrailCall, {
        params: { customerId },
        body: { reason, cursor: trail.nextCursor },
      });
      setResult({
        key,
        trail: { ...next, entries: [...trail.entries, ...next.entries] },
      });
      setMore({ busy: false, failure: null, added: next.entries.length });
    } catch (error) {
      setMore({ busy: false, failure: failureText(error), added: null });
    }
  };

  const firstNew = more.added ? trail.entries.length - more.added : -1;
  return (
    <>
      {back}
      <span className="staff-caption">
        {fillPlaceholders(texts.record.caption, { customerId: trail.customerId })}
      </span>
      <h1 ref={heading} tabIndex={-1}>
        {fillPlaceholders(t.titleFor, { name: trail.name })}
      </h1>
      <p className="staff-reason">{fillPlaceholders(texts.record.reasonShown, { reason })}</p>
      <p>{t.intro}</p>
      {trail.entries.length === 0 ? (
        <p>{t.empty}</p>
      ) : (
        // A wide table scrolls sideways in its own region on a small screen, which the keyboard can scroll too.
        // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
        <div className="staff-table-scroll" role="region" aria-label={t.scrollLabel} tabIndex={0}>
          <table className="staff-table">
            <caption className="visually-hidden">{t.caption}</caption>
            <thead>
              <tr>
                <th scope="col">{t.when}</th>
                <th scope="col">{t.event}</th>
                <th scope="col">{t.outcome}</th>
                <th scope="col">{t.onBehalfOf}</th>
                <th scope="col">{t.details}</th>
              </tr>
            </thead>
            <tbody>
              {trail.entries.map((entry, n) => (
                <tr
                  key={`${entry.at}-${entry.eventId}-${n}`}
                  ref={n === firstNew ? firstAdded : undefined}
                  tabIndex={n === firstNew ? -1 : undefined}
                >
                  <td>
                    <time dateTime={entry.at}>{ukDateTime(entry.at)}</time>
                  </td>
                  <td>
                    <code>{entry.eventId}</code>
                    <br />
                    <span className="staff-muted">{entry.source}</span>
                  </td>
                  <td>
                    <Outcome entry={entry} />
                  </td>
                  <td>{entry.onBehalfOf ?? t.customer}</td>
                  <td>
                    {Object.keys(entry.details).length === 0 ? (
                      t.noDetails
                    ) : (
                      <ul className="staff-plain-list staff-details">
                        {Object.entries(entry.details).map(([name, value]) => (
                          <li key={name}>
                            <span className="staff-muted">{name}:</span> {detailValue(value)}
                          </li>
                        ))}
                      </ul>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <p className="visually-hidden" aria-live="polite" aria-atomic="true">
        {more.added ? fillPlaceholders(t.moreShown, { count: more.added }) : ''}
      </p>
      {more.failure ? (
        <NotificationBanner title={texts.actions.failedTitle} focusOnMount>
          <p>{more.failure.message}</p>
        </NotificationBanner>
      ) : null}
      {trail.nextCursor ? (
        <Button variant="secondary" submitting={more.busy} onClick={() => void showMore()}>
          {t.showMore}
        </Button>
      ) : trail.entries.length > 0 ? (
        <p>{t.end}</p>
      ) : null}
    </>
  );
}
