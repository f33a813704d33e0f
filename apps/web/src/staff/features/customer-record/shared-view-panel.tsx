import { staffOpenSharedViewCall, type StaffSharedViewLink } from '@portal/contracts/staff-shared-view';
import type { StaffCustomerView } from '@portal/contracts/staff';
import { useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { ErrorSummary } from '../../../components/ui/error-summary';
import { NotificationBanner } from '../../../components/ui/notification-banner';
import { TextField } from '../../../components/ui/text-field';
import { ApiError } from '../../../lib/api-client';
import { formatUkTime } from '../../../lib/format';
import { fillPlaceholders } from '../../../lib/forms/fill-placeholders';
import { failureText, type FailureText } from '../../content/call-errors';
import { texts } from '../../content/texts';
import { checkReason } from '../../lib/validation';
import { mayCall, staffCall, useConsoleSession } from '../../session/staff-session';

/*
 * See what the customer sees (issue 41 point 6, decision 039): the agent enters the code the customer
 * reads out (unless the insurer has turned codes off) and the reason, and gets a link that opens the
 * customer's portal read only in a new tab. A link, not a window opened by script: it opens where the
 * agent chooses, and no pop-up blocker stands in the way. A wrong code keeps what was typed.
 */

type Field = 'code' | 'reason';
const fieldIds: Record<Field, string> = { code: 'shared-view-code', reason: 'shared-view-reason' };

export function SharedViewPanel({ view, reason }: { view: StaffCustomerView; reason: string }) {
  const session = useConsoleSession();
  const [values, setValues] = useState({ code: '', reason });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [attempt, setAttempt] = useState(0);
  const [failure, setFailure] = useState<{ text: FailureText; n: number } | null>(null);
  const [link, setLink] = useState<StaffSharedViewLink | null>(null);
  const [busy, setBusy] = useState(false);
  if (!session || !mayCall(session, staffOpenSharedViewCall)) return null;
  if (view.registration.state !== 'active') return null;
  const needsCode = session.member.sharedViewCode !== 'off';
  const t = texts.sharedView;

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const found: Partial<Record<Field, string>> = {};
    const code = values.code.replace(/\s+/g, '');
    if (needsCode && code === '') found.code = texts.validation.code.empty;
    else if (code !== '' && !/^\d{6}$/.test(code)) found.code = texts.validation.code.invalid;
    const checked = checkReason(values.reason);
    if (checked.error) found.reason = texts.validation.reason[checked.error];
    setAttempt((n) => n + 1);
    setErrors(found);
    if (Object.keys(found).length > 0 || checked.error) return;
    setBusy(true);
    setLink(null);
    try {
      const answer = await staffCall(staffOpenSharedViewCall, {
        params: { customerId: view.customerId },
        body: { reason: checked.value, ...(code ? { code } : {}) },
      });
      setFailure(null);
      setValues((v) => ({ ...v, code: '' }));
      setLink(answer);
    } catch (error) {
      const text =
        error instanceof ApiError && error.status === 422
          ? { message: t.wrongCode }
          : failureText(error, { conflict: t.noAccount });
      setFailure((f) => ({ text, n: (f?.n ?? 0) + 1 }));
    } finally {
      setBusy(false);
    }
  };

  const summary = (Object.keys(fieldIds) as Field[])
    .filter((field) => errors[field])
    .map((field) => ({ id: fieldIds[field], message: errors[field] }));

  return (
    <section aria-labelledby="shared-view-title" className="staff-actions">
      <h2 id="shared-view-title">{t.title}</h2>
      {failure ? (
        <NotificationBanner key={failure.n} title={texts.actions.failedTitle} focusOnMount>
          <p>{failure.text.message}</p>
        </NotificationBanner>
      ) : null}
      {link ? (
        <NotificationBanner variant="success" title={t.readyTitle} focusOnMount>
          <p>
            <a href={link.url} target="_blank" rel="noopener noreferrer">
              {fillPlaceholders(t.open, { name: view.name })}
            </a>
          </p>
          <p>
            {fillPlaceholders(t.linkEnds, {
              time: formatUkTime(link.linkExpiresAt),
              ends: formatUkTime(link.viewEndsAt),
            })}
          </p>
        </NotificationBanner>
      ) : null}
      <ErrorSummary errors={summary} focusKey={attempt} />
      <p>{needsCode ? t.body : t.bodyNoCode}</p>
      <form noValidate onSubmit={(event) => void onSubmit(event)} className="staff-form">
        {needsCode ? (
          <TextField
            id={fieldIds.code}
            label={t.codeLabel}
            hint={t.codeHint}
            value={values.code}
            onChange={(code) => setValues((v) => ({ ...v, code }))}
            error={errors.code}
            inputMode="numeric"
            autoComplete="off"
            width={10}
            required
          />
        ) : null}
        <TextField
          id={fieldIds.reason}
          label={texts.actions.reason.label}
          hint={texts.actions.reason.hint}
          value={values.reason}
          onChange={(text) => setValues((v) => ({ ...v, reason: text }))}
          error={errors.reason}
          width={30}
          autoComplete="off"
          required
        />
        <Button type="submit" submitting={busy} submittingText={texts.actions.working}>
          {t.submit}
        </Button>
      </form>
    </section>
  );
}
