import { errorEnvelope } from '@portal/contracts/call';
import {
  discardDeadLetterCall,
  getOperationsCall,
  listDeadLettersCall,
  retryDeadLetterCall,
  setFlagCall,
  setMaintenanceCall,
  setServiceAlertCall,
  type DeadLetter,
  type OperationsState,
} from '@portal/contracts/staff-content';
import { useEffect, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button';
import { NotificationBanner } from '../../../components/ui/notification-banner';
import { TextField } from '../../../components/ui/text-field';
import { ApiError } from '../../../lib/api-client';
import { fillPlaceholders } from '../../../lib/forms/fill-placeholders';
import { failureText, type FailureText } from '../../content/call-errors';
import { contentTexts } from '../../content/content-texts';
import { Loading } from '../../content/page-states';
import { texts } from '../../content/texts';
import { useConsoleTitle } from '../../content/use-console-title';
import { ukDateTime } from '../../lib/format';
import { staffCall } from '../../session/staff-session';

const t = contentTexts.operations;

/** A datetime-local field's value (the browser's local time) as an instant, or null when empty. */
const instantOf = (local: string): string | null =>
  local.trim() === '' ? null : new Date(local).toISOString();

type Notice =
  { kind: 'done'; text: string; key: number } | { kind: 'failed'; failure: FailureText; key: number };

function problemOf(error: unknown): FailureText {
  if (error instanceof ApiError && (error.status === 422 || error.status === 400)) {
    const envelope = errorEnvelope.safeParse(error.body);
    if (envelope.success) {
      const fields = Object.entries(envelope.data.fieldErrors ?? {}).map(([k, v]) => `${k}: ${v}`);
      return { message: fields.length > 0 ? fields.join('. ') : envelope.data.message };
    }
  }
  return failureText(error);
}

/**
 * The operator's switches (issue 42 point 5): maintenance mode (with an optional end), the service alert
 * (with an optional window), and the feature flags and their experiments' weights. Each with a reason,
 * recorded with the operator's name, live on every server within seconds.
 */
export function OperationsPage() {
  useConsoleTitle(t.title);
  const [state, setState] = useState<OperationsState | null>(null);
  const [failed, setFailed] = useState<FailureText | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [busy, setBusy] = useState(false);
  const [maintenanceReason, setMaintenanceReason] = useState('');
  const [maintenanceEnds, setMaintenanceEnds] = useState('');
  const [alertReason, setAlertReason] = useState('');
  const [alertStarts, setAlertStarts] = useState('');
  const [alertEnds, setAlertEnds] = useState('');
  const [flagEdits, setFlagEdits] = useState<
    Record<string, { defaultValue: string; weights: string[]; reason: string }>
  >({});

  const [deadLetters, setDeadLetters] = useState<DeadLetter[] | null>(null);
  const [deadReason, setDeadReason] = useState('');

  useEffect(() => {
    let live = true;
    staffCall(listDeadLettersCall)
      .then((answer) => live && setDeadLetters(answer.items))
      .catch(() => live && setDeadLetters([]));
    staffCall(getOperationsCall)
      .then((answer) => live && setState(answer))
      .catch((error: unknown) => live && setFailed(failureText(error)));
    return () => {
      live = false;
    };
  }, []);

  if (failed) return <p role="alert">{failed.message}</p>;
  if (!state) return <Loading text={t.loading} />;

  const run = async (what: string, action: () => Promise<OperationsState>) => {
    if (busy) return;
    setBusy(true);
    try {
      setState(await action());
      setNotice((n) => ({ kind: 'done', text: fillPlaceholders(t.done, { what }), key: (n?.key ?? 0) + 1 }));
    } catch (error) {
      setNotice((n) => ({ kind: 'failed', failure: problemOf(error), key: (n?.key ?? 0) + 1 }));
    } finally {
      setBusy(false);
    }
  };

  const onDeadLetter = (id: string, retry: boolean) =>
    void run(fillPlaceholders(retry ? t.deadLetters.retried : t.deadLetters.discarded, { id }), async () => {
      await staffCall(retry ? retryDeadLetterCall : discardDeadLetterCall, {
        params: { id },
        body: { reason: deadReason },
      });
      setDeadLetters((all) => (all ?? []).filter((d) => d.id !== id));
      return state;
    });

  const onMaintenance = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const on = !state.maintenance.on;
    void run(on ? t.maintenance.turnOn : t.maintenance.turnOff, async () => {
      const answer = await staffCall(setMaintenanceCall, {
        body: { on, reason: maintenanceReason, ...(on ? { endsAt: instantOf(maintenanceEnds) } : {}) },
      });
      setMaintenanceReason('');
      setMaintenanceEnds('');
      return answer;
    });
  };

  const onAlert = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const visible = !state.serviceAlert.visible;
    void run(visible ? t.alert.show : t.alert.hide, async () => {
      const answer = await staffCall(setServiceAlertCall, {
        body: {
          visible,
          reason: alertReason,
          ...(visible ? { startsAt: instantOf(alertStarts), endsAt: instantOf(alertEnds) } : {}),
        },
      });
      setAlertReason('');
      return answer;
    });
  };

  const maintenanceStatus = state.maintenance.inForce
    ? state.maintenance.endsAt
      ? fillPlaceholders(t.maintenance.onUntil, { at: ukDateTime(state.maintenance.endsAt) })
      : t.maintenance.on
    : t.maintenance.off;
  const alert = state.serviceAlert;
  const alertStatus = alert.showing
    ? fillPlaceholders(t.alert.showing, { title: alert.title })
    : alert.visible && alert.startsAt
      ? fillPlaceholders(t.alert.scheduled, { from: ukDateTime(alert.startsAt) })
      : t.alert.hidden;

  return (
    <>
      {notice?.kind === 'done' ? (
        <NotificationBanner key={notice.key} variant="success">
          <p>{notice.text}</p>
        </NotificationBanner>
      ) : null}
      {notice?.kind === 'failed' ? (
        <NotificationBanner key={notice.key} title={texts.actions.failedTitle} focusOnMount>
          <p>{notice.failure.message}</p>
        </NotificationBanner>
      ) : null}
      <h1>{t.title}</h1>
      <p>{t.intro}</p>

      <section aria-labelledby="maintenance-heading">
        <h2 id="maintenance-heading">{t.maintenance.title}</h2>
        <p className="staff-status" role="status">
          <strong>{maintenanceStatus}</strong>
        </p>
        <form noValidate className="staff-form" onSubmit={onMaintenance}>
          {!state.maintenance.on ? (
            <TextField
              id="maintenance-ends"
              type="datetime-local"
              label={t.maintenance.endsAt}
              hint={t.maintenance.endsAtHint}
              value={maintenanceEnds}
              onChange={setMaintenanceEnds}
            />
          ) : null}
          <TextField
            id="maintenance-reason"
            label={t.reason}
            hint={t.reasonHint}
            value={maintenanceReason}
            width={30}
            onChange={setMaintenanceReason}
          />
          <Button type="submit" variant={state.maintenance.on ? 'primary' : 'warning'} submitting={busy}>
            {state.maintenance.on ? t.maintenance.turnOff : t.maintenance.turnOn}
          </Button>
        </form>
      </section>

      <section aria-labelledby="alert-heading">
        <h2 id="alert-heading">{t.alert.title}</h2>
        <p className="staff-status">
          <strong>{alertStatus}</strong>
        </p>
        <p>
          <Link to="/content/service-alert">{t.alert.edit}</Link>
        </p>
        <form noValidate className="staff-form" onSubmit={onAlert}>
          {!alert.visible ? (
            <>
              <TextField
                id="alert-starts"
                type="datetime-local"
                label={t.alert.startsAt}
                hint={t.alert.when}
                value={alertStarts}
                onChange={setAlertStarts}
              />
              <TextField
                id="alert-ends"
                type="datetime-local"
                label={t.alert.endsAt}
                hint={t.alert.when}
                value={alertEnds}
                onChange={setAlertEnds}
              />
            </>
          ) : null}
          <TextField
            id="alert-reason"
            label={t.reason}
            hint={t.reasonHint}
            value={alertReason}
            width={30}
            onChange={setAlertReason}
          />
          <Button type="submit" submitting={busy}>
            {alert.visible ? t.alert.hide : t.alert.show}
          </Button>
        </form>
      </section>

      <section aria-labelledby="flags-heading">
        <h2 id="flags-heading">{t.flags.title}</h2>
        {state.flags.map((flag) => {
          const edit = flagEdits[flag.key] ?? {
            defaultValue: String(flag.defaultValue),
            weights: flag.experiment?.weights.map(String) ?? [],
            reason: '',
          };
          const put = (next: Partial<typeof edit>) =>
            setFlagEdits((all) => ({ ...all, [flag.key]: { ...edit, ...next } }));
          const id = flag.key.replace(/[^a-zA-Z0-9]+/g, '-');
          return (
            <form
              key={flag.key}
              noValidate
              className="staff-form staff-flag"
              aria-label={flag.key}
              onSubmit={(event) => {
                event.preventDefault();
                void run(fillPlaceholders(t.flags.save, { key: flag.key }), () =>
                  staffCall(setFlagCall, {
                    body: {
                      key: flag.key,
                      reason: edit.reason,
                      ...(typeof flag.defaultValue === 'string' ? { defaultValue: edit.defaultValue } : {}),
                      ...(flag.experiment ? { weights: edit.weights.map(Number) } : {}),
                    },
                  }),
                );
              }}
            >
              <h3>{flag.key}</h3>
              {typeof flag.defaultValue === 'string' ? (
                <TextField
                  id={`flag-${id}-default`}
                  label={fillPlaceholders(t.flags.defaultValue, { key: flag.key })}
                  value={edit.defaultValue}
                  width={20}
                  onChange={(defaultValue) => put({ defaultValue })}
                />
              ) : null}
              {flag.experiment?.variations.map((variation, i) => (
                <TextField
                  key={String(variation)}
                  id={`flag-${id}-weight-${i}`}
                  label={fillPlaceholders(t.flags.weight, { variation: String(variation), key: flag.key })}
                  hint={i === 0 ? t.flags.weightsHint : undefined}
                  inputMode="decimal"
                  width={5}
                  value={edit.weights[i] ?? ''}
                  onChange={(value) => put({ weights: edit.weights.map((w, j) => (j === i ? value : w)) })}
                />
              ))}
              <TextField
                id={`flag-${id}-reason`}
                label={t.reason}
                hint={t.reasonHint}
                value={edit.reason}
                width={30}
                onChange={(reason) => put({ reason })}
              />
              <Button type="submit" variant="secondary" submitting={busy}>
                {fillPlaceholders(t.flags.save, { key: flag.key })}
              </Button>
            </form>
          );
        })}
      </section>
      <section aria-labelledby="dead-letters-heading">
        <h2 id="dead-letters-heading">{t.deadLetters.title}</h2>
        <p>{t.deadLetters.intro}</p>
        {deadLetters === null ? null : deadLetters.length === 0 ? (
          <p>{t.deadLetters.none}</p>
        ) : (
          <>
            <TextField
              id="dead-letter-reason"
              label={t.deadLetters.reason}
              hint={t.reasonHint}
              value={deadReason}
              width={30}
              onChange={setDeadReason}
            />
            <div
              className="staff-table-scroll"
              role="region"
              aria-labelledby="dead-letters-caption"
              // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
              tabIndex={0}
            >
              <table className="staff-table">
                <caption id="dead-letters-caption" className="staff-caption">
                  {t.deadLetters.caption}
                </caption>
                <thead>
                  <tr>
                    <th scope="col">{t.deadLetters.message}</th>
                    <th scope="col">{t.deadLetters.customer}</th>
                    <th scope="col">{t.deadLetters.lastError}</th>
                    <th scope="col">{t.deadLetters.actions}</th>
                  </tr>
                </thead>
                <tbody>
                  {deadLetters.map((d) => (
                    <tr key={d.id}>
                      <th scope="row">
                        {d.id} · {d.channel} · {d.kind}
                        <br />
                        {ukDateTime(d.createdAt)}
                      </th>
                      <td>{d.customerId ?? ''}</td>
                      <td>{d.lastError ?? ''}</td>
                      <td>
                        <div className="staff-actions">
                          <Button variant="secondary" onClick={() => onDeadLetter(d.id, true)}>
                            {fillPlaceholders(t.deadLetters.retry, { id: d.id })}
                          </Button>
                          <Button variant="warning" onClick={() => onDeadLetter(d.id, false)}>
                            {fillPlaceholders(t.deadLetters.discard, { id: d.id })}
                          </Button>
                        </div>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </>
        )}
      </section>
    </>
  );
}
