import {
  staffChangeEmailCall,
  staffEndSessionsCall,
  staffRemoveFactorsCall,
  staffResendActivationCall,
  staffUnlockCall,
  type StaffCustomerView,
} from '@portal/contracts/staff';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { Checkbox } from '../../../components/ui/checkbox';
import { CheckboxGroup } from '../../../components/ui/checkbox-group';
import { ErrorSummary } from '../../../components/ui/error-summary';
import { NotificationBanner } from '../../../components/ui/notification-banner';
import { TextField } from '../../../components/ui/text-field';
import { fillPlaceholders } from '../../../lib/forms/fill-placeholders';
import { failureText, type FailureText } from '../../content/call-errors';
import { texts } from '../../content/texts';
import { checkEmail, checkReason } from '../../lib/validation';
import { mayCall, staffCall, useConsoleSession } from '../../session/staff-session';

/*
 * The actions on a customer's record (issue 41 point 5), each offered only to the roles its call names
 * (contracts/staff.ts `staffRoles`) and only when it applies: the activation link while the account is
 * pending, unlocking while the sign-in is locked, signing out everywhere while the customer is signed in
 * somewhere; for senior agents also removing second factors the customer has, and changing the email of an
 * online account. Each asks for a reason (the record's, editable), is confirmed with its own button, and
 * says what happened in a banner that takes focus; the record shows what the answer says it is now. A
 * failed action keeps what was typed.
 */

type ActionId = 'resendActivation' | 'unlock' | 'endSessions' | 'removeFactors' | 'changeEmail';
type FactorKind = 'authenticator-app' | 'passkeys' | 'backup-codes';

const calls = {
  resendActivation: staffResendActivationCall,
  unlock: staffUnlockCall,
  endSessions: staffEndSessionsCall,
  removeFactors: staffRemoveFactorsCall,
  changeEmail: staffChangeEmailCall,
} as const;

const actionIds = Object.keys(calls) as ActionId[];

/** The second factors the customer has that may be removed, as the call names them. */
function removableKinds(view: StaffCustomerView): FactorKind[] {
  const has = (kind: StaffCustomerView['factors'][number]['kind']) =>
    view.factors.some((f) => f.kind === kind);
  return [
    ...(has('authenticator-app') ? (['authenticator-app'] as const) : []),
    ...(has('passkey') ? (['passkeys'] as const) : []),
    ...(has('backup-codes') ? (['backup-codes'] as const) : []),
  ];
}

function applies(id: ActionId, view: StaffCustomerView): boolean {
  switch (id) {
    case 'resendActivation':
      return view.registration.state === 'pending';
    case 'unlock':
      return view.signIn.locked;
    case 'endSessions':
      return view.sessions.length > 0;
    case 'removeFactors':
      return removableKinds(view).length > 0;
    case 'changeEmail':
      return view.registration.state === 'pending' || view.registration.state === 'active';
  }
}

const fieldIds = {
  kinds: 'action-kinds',
  email: 'action-email',
  reason: 'action-reason',
  identityChecked: 'action-identity-checked',
} as const;
type ActionField = keyof typeof fieldIds;

interface ActionValues {
  reason: string;
  kinds: FactorKind[];
  email: string;
  identityChecked: boolean;
}

type ActionRequest =
  | { id: 'resendActivation' | 'unlock' | 'endSessions'; reason: string }
  | { id: 'removeFactors'; reason: string; kinds: FactorKind[] }
  | { id: 'changeEmail'; reason: string; email: string };

/** The form's problems, or what to send. */
function checkAction(
  id: ActionId,
  values: ActionValues,
):
  | { errors: Partial<Record<ActionField, string>>; request?: undefined }
  | { errors: null; request: ActionRequest } {
  const v = texts.validation;
  const errors: Partial<Record<ActionField, string>> = {};
  if (id === 'removeFactors' && values.kinds.length === 0) errors.kinds = v.kinds;
  const email = checkEmail(values.email);
  if (id === 'changeEmail' && email.error) errors.email = v.newEmail[email.error];
  const reason = checkReason(values.reason);
  if (reason.error) errors.reason = v.reason[reason.error];
  if ((id === 'removeFactors' || id === 'changeEmail') && !values.identityChecked)
    errors.identityChecked = v.identityChecked;
  if (Object.keys(errors).length > 0 || reason.error) return { errors };
  if (id === 'removeFactors')
    return { errors: null, request: { id, reason: reason.value, kinds: values.kinds } };
  if (id === 'changeEmail')
    return { errors: null, request: { id, reason: reason.value, email: email.value! } };
  return { errors: null, request: { id, reason: reason.value } };
}

/** Sends an action: the record as it is after it. */
async function send(customerId: string, request: ActionRequest): Promise<StaffCustomerView> {
  const params = { customerId };
  switch (request.id) {
    case 'removeFactors':
      return (
        await staffCall(staffRemoveFactorsCall, {
          params,
          body: { reason: request.reason, kinds: request.kinds, identityChecked: true },
        })
      ).customer;
    case 'changeEmail':
      return (
        await staffCall(staffChangeEmailCall, {
          params,
          body: { reason: request.reason, email: request.email, identityChecked: true },
        })
      ).customer;
    default:
      return (await staffCall(calls[request.id], { params, body: { reason: request.reason } })).customer;
  }
}

function ActionPanel({
  id,
  view,
  reason,
  onCancel,
  onDone,
}: {
  id: ActionId;
  view: StaffCustomerView;
  reason: string;
  onCancel: () => void;
  onDone: (view: StaffCustomerView) => void;
}) {
  const words = texts.actions[id];
  const a = texts.actions;
  const [values, setValues] = useState<ActionValues>({
    reason,
    kinds: [],
    email: '',
    identityChecked: false,
  });
  const [errors, setErrors] = useState<Partial<Record<ActionField, string>>>({});
  const [attempt, setAttempt] = useState(0);
  const [failure, setFailure] = useState<{ text: FailureText; n: number } | null>(null);
  const [busy, setBusy] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const checked = checkAction(id, values);
    setAttempt((n) => n + 1);
    if (checked.errors) {
      setErrors(checked.errors);
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      onDone(await send(view.customerId, checked.request));
    } catch (error) {
      setFailure((f) => ({ text: failureText(error, { conflict: words.conflict }), n: (f?.n ?? 0) + 1 }));
      setBusy(false);
    }
  };

  const summary = (Object.keys(fieldIds) as ActionField[])
    .filter((field) => errors[field])
    .map((field) => ({ id: fieldIds[field], message: errors[field] }));
  const kinds = removableKinds(view);
  const guarded = id === 'removeFactors' || id === 'changeEmail';

  return (
    <section id="action-panel" aria-labelledby="action-panel-title" className="staff-action-panel">
      <h3 id="action-panel-title" ref={heading} tabIndex={-1}>
        {words.title}
      </h3>
      {failure ? (
        <NotificationBanner key={failure.n} title={a.failedTitle} focusOnMount>
          <p>{failure.text.message}</p>
          {failure.text.reference ? (
            <p className="staff-reference">
              {fillPlaceholders(a.reference, { correlationId: failure.text.reference })}
            </p>
          ) : null}
        </NotificationBanner>
      ) : null}
      <ErrorSummary errors={summary} focusKey={attempt} />
      <p>{fillPlaceholders(words.body, { email: view.email ?? texts.record.identity.none })}</p>
      <form noValidate onSubmit={(event) => void onSubmit(event)} className="staff-form">
        {id === 'removeFactors' ? (
          <CheckboxGroup
            id={fieldIds.kinds}
            name="kinds"
            legend={texts.actions.removeFactors.kindsLegend}
            hint={texts.actions.removeFactors.kindsHint}
            options={kinds.map((kind) => ({ value: kind, label: texts.actions.removeFactors.kinds[kind] }))}
            value={values.kinds}
            error={errors.kinds}
            onChange={(chosen) => setValues((v) => ({ ...v, kinds: chosen as FactorKind[] }))}
          />
        ) : null}
        {id === 'changeEmail' ? (
          <TextField
            id={fieldIds.email}
            label={texts.actions.changeEmail.label}
            type="email"
            value={values.email}
            onChange={(email) => setValues((v) => ({ ...v, email }))}
            error={errors.email}
            autoComplete="off"
            spellCheck={false}
            required
          />
        ) : null}
        <TextField
          id={fieldIds.reason}
          label={a.reason.label}
          hint={a.reason.hint}
          value={values.reason}
          onChange={(text) => setValues((v) => ({ ...v, reason: text }))}
          error={errors.reason}
          width={30}
          autoComplete="off"
          required
        />
        {guarded ? (
          <Checkbox
            id={fieldIds.identityChecked}
            label={a.identityChecked}
            hint={a.identityCheckedHint}
            checked={values.identityChecked}
            onChange={(checked) => setValues((v) => ({ ...v, identityChecked: checked }))}
            error={errors.identityChecked}
            required
          />
        ) : null}
        <div className="staff-button-group">
          <Button
            type="submit"
            variant={guarded ? 'warning' : 'primary'}
            submitting={busy}
            submittingText={a.working}
          >
            {words.confirm}
          </Button>
          <Button variant="secondary" onClick={onCancel}>
            {a.cancel}
          </Button>
        </div>
      </form>
    </section>
  );
}

/** The actions this staff member may take on this record now, one open at a time. */
export function RecordActions({
  view,
  reason,
  onUpdated,
}: {
  view: StaffCustomerView;
  reason: string;
  onUpdated: (view: StaffCustomerView) => void;
}) {
  const session = useConsoleSession();
  const [open, setOpen] = useState<ActionId | null>(null);
  const [done, setDone] = useState<{ id: ActionId; n: number } | null>(null);
  const buttons = useRef(new Map<ActionId, HTMLButtonElement>());
  const mine = actionIds.filter((id) => mayCall(session, calls[id]));
  if (mine.length === 0) return null;
  const offered = mine.filter((id) => applies(id, view));
  const a = texts.actions;

  const close = (id: ActionId) => {
    setOpen(null);
    buttons.current.get(id)?.focus();
  };

  return (
    <section aria-labelledby="record-actions" className="staff-actions">
      <h2 id="record-actions">{a.title}</h2>
      {done ? (
        <NotificationBanner key={done.n} variant="success" title={a.doneTitle}>
          <p>{a[done.id].done}</p>
        </NotificationBanner>
      ) : null}
      {offered.length === 0 ? (
        <p>{a.none}</p>
      ) : (
        <ul className="staff-action-list">
          {offered.map((id) => (
            <li key={id}>
              <Button
                variant="secondary"
                ref={(element) => {
                  if (element) buttons.current.set(id, element);
                  else buttons.current.delete(id);
                }}
                aria-expanded={open === id}
                aria-controls={open === id ? 'action-panel' : undefined}
                onClick={() => {
                  setDone(null);
                  setOpen(open === id ? null : id);
                }}
              >
                {a[id].button}
              </Button>
            </li>
          ))}
        </ul>
      )}
      {open && offered.includes(open) ? (
        <ActionPanel
          key={open}
          id={open}
          view={view}
          reason={reason}
          onCancel={() => close(open)}
          onDone={(next) => {
            setOpen(null);
            setDone((d) => ({ id: open, n: (d?.n ?? 0) + 1 }));
            onUpdated(next);
          }}
        />
      ) : null}
    </section>
  );
}
