import type { StaffCustomerView } from '@portal/contracts/staff';
import { SummaryRow } from '../../../components/ui/summary-row';
import { fillPlaceholders } from '../../../lib/forms/fill-placeholders';
import { activityWording } from '../../content/activity-wording';
import { texts } from '../../content/texts';
import { longDate, ukDateTime } from '../../lib/format';

const t = texts.record;

/** Who the customer is, for the identity questions of the call script. */
export function IdentityDetails({ view }: { view: StaffCustomerView }) {
  const none = t.identity.none;
  return (
    <section aria-labelledby="record-identity">
      <h2 id="record-identity">{t.identity.title}</h2>
      <dl className="summary-list">
        <SummaryRow label={t.identity.dateOfBirth}>{longDate(view.dateOfBirth)}</SummaryRow>
        <SummaryRow label={t.identity.postcode}>{view.postcode ?? none}</SummaryRow>
        <SummaryRow label={t.identity.email}>{view.email ?? none}</SummaryRow>
        <SummaryRow label={t.identity.mobile}>{view.mobile ?? none}</SummaryRow>
        <SummaryRow label={t.identity.landline}>{view.landline ?? none}</SummaryRow>
      </dl>
    </section>
  );
}

function registrationText(view: StaffCustomerView): string {
  const g = t.glance;
  const state = g.registrationStates[view.registration.state];
  const sent = view.registration.activationSentAt;
  return view.registration.state === 'pending' && sent
    ? `${state}. ${fillPlaceholders(g.activationSent, { when: ukDateTime(sent) })}`
    : state;
}

function signInText(view: StaffCustomerView): string {
  const g = t.glance;
  if (!view.signIn.locked) return g.notLocked;
  return view.signIn.lockedUntil
    ? fillPlaceholders(g.lockedUntil, { when: ukDateTime(view.signIn.lockedUntil) })
    : g.locked;
}

function lastSignInText(view: StaffCustomerView): string {
  const g = t.glance;
  const at = view.signIn.lastSignInAt;
  if (!at) return g.never;
  const when = ukDateTime(at);
  return view.signIn.lastSignInDevice
    ? fillPlaceholders(g.lastSignInOn, { when, device: view.signIn.lastSignInDevice })
    : when;
}

function marketingText(view: StaffCustomerView): string {
  const g = t.glance;
  return (Object.keys(g.marketingChannels) as Array<keyof typeof g.marketingChannels>)
    .map((channel) => {
      const choice = view.preferences.marketing[channel];
      const said = choice === null ? g.marketingNotAsked : choice ? g.marketingYes : g.marketingNo;
      return `${g.marketingChannels[channel]}: ${said}`;
    })
    .join(', ');
}

/** The customer's state at a glance (issue 41 point 4): never a secret, only what helps on the phone. */
export function StateAtAGlance({ view }: { view: StaffCustomerView }) {
  const g = t.glance;
  return (
    <section aria-labelledby="record-glance">
      <h2 id="record-glance">{g.title}</h2>
      <dl className="summary-list">
        <SummaryRow label={g.registration}>{registrationText(view)}</SummaryRow>
        <SummaryRow label={g.signIn}>
          <span className={view.signIn.locked ? 'staff-flag staff-flag--warning' : undefined}>
            {signInText(view)}
          </span>
        </SummaryRow>
        <SummaryRow label={g.lastSignIn}>{lastSignInText(view)}</SummaryRow>
        <SummaryRow label={g.factors}>
          {view.factors.length === 0 ? (
            g.noFactors
          ) : (
            <ul className="list staff-plain-list">
              {view.factors.map((factor) => (
                <li key={`${factor.kind}-${factor.destination ?? ''}`}>
                  {[
                    g.factorKinds[factor.kind],
                    factor.destination
                      ? fillPlaceholders(g.factorTo, { destination: factor.destination })
                      : '',
                    factor.count > 1 ? fillPlaceholders(g.factorCount, { count: factor.count }) : '',
                    factor.addedAt
                      ? fillPlaceholders(g.factorAdded, { when: ukDateTime(factor.addedAt) })
                      : '',
                  ]
                    .filter(Boolean)
                    .join(' ')}
                </li>
              ))}
            </ul>
          )}
        </SummaryRow>
        <SummaryRow label={g.sessions}>
          {view.sessions.length === 0 ? (
            g.noSessions
          ) : (
            <ul className="list staff-plain-list">
              {view.sessions.map((session) => (
                <li key={session.id}>
                  {fillPlaceholders(g.sessionItem, {
                    browser: session.browser ?? g.unknownBrowser,
                    when: ukDateTime(session.signedInAt),
                  })}
                </li>
              ))}
            </ul>
          )}
        </SummaryRow>
        <SummaryRow label={g.documents}>{view.preferences.paperless ? g.paperless : g.paper}</SummaryRow>
        <SummaryRow label={g.marketing}>{marketingText(view)}</SummaryRow>
      </dl>
    </section>
  );
}

/** The customer's policies in brief. */
export function PoliciesInBrief({ view }: { view: StaffCustomerView }) {
  const p = t.policies;
  return (
    <section aria-labelledby="record-policies">
      <h2 id="record-policies">{p.title}</h2>
      {view.policies.length === 0 ? (
        <p>{p.none}</p>
      ) : (
        <ul className="staff-cards">
          {view.policies.map((policy) => (
            <li key={policy.policyNumber} className="staff-card">
              <h3 className="staff-card__title">{policy.product}</h3>
              <dl className="summary-list summary-list--compact">
                <SummaryRow label={p.number}>{policy.policyNumber}</SummaryRow>
                <SummaryRow label={p.status}>{p.statuses[policy.status] ?? policy.status}</SummaryRow>
                <SummaryRow label={p.renewal}>
                  {policy.renewalDate ? longDate(policy.renewalDate) : null}
                </SummaryRow>
              </dl>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** The last 20 entries of the customer's account activity, in the customer's own words. */
export function RecentActivity({ view }: { view: StaffCustomerView }) {
  const a = t.activity;
  return (
    <section aria-labelledby="record-activity">
      <h2 id="record-activity">{a.title}</h2>
      <p>{a.intro}</p>
      {view.activity.length === 0 ? (
        <p>{a.empty}</p>
      ) : (
        <ol className="account-activity__list staff-activity">
          {view.activity.map((item, n) => {
            const words = activityWording(item);
            return (
              <li key={`${item.at}-${n}`} className="account-activity__item">
                <p className="account-activity__time">
                  <time dateTime={item.at}>{ukDateTime(item.at)}</time>
                </p>
                <div className="account-activity__what">
                  <p className="account-activity__title">{words.title}</p>
                  {words.details.map((line) => (
                    <p key={line} className="account-activity__detail">
                      {line}
                    </p>
                  ))}
                </div>
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}
