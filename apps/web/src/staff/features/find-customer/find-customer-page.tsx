import { staffAuditTrailCall, staffOpenCustomerCall, staffSearchCall } from '@portal/contracts/staff';
import type { StaffSearchResponse } from '@portal/contracts/staff';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button';
import { DateOfBirthField } from '../../../components/ui/date-of-birth-field';
import { ErrorSummary } from '../../../components/ui/error-summary';
import { NotificationBanner } from '../../../components/ui/notification-banner';
import { RadioGroup } from '../../../components/ui/radio-group';
import { TextField } from '../../../components/ui/text-field';
import { VisuallyHidden } from '../../../components/ui/visually-hidden';
import { fillPlaceholders } from '../../../lib/forms/fill-placeholders';
import { failureText, type FailureText } from '../../content/call-errors';
import { texts } from '../../content/texts';
import { useConsoleTitle } from '../../content/use-console-title';
import { consolePaths, type ReasonState } from '../../lib/paths';
import { mayCall, staffCall, useConsoleSession } from '../../session/staff-session';
import {
  checkSearch,
  emptySearch,
  searchFieldIds as ids,
  summaryOf,
  type SearchErrors,
  type SearchField,
  type SearchValues,
} from './search-form';

type Outcome =
  | { kind: 'found'; results: StaffSearchResponse['results']; reason: string }
  | { kind: 'failed'; failure: FailureText };

/**
 * The last search of this page load: coming back from a record shows it again (the form as typed and what
 * it found), rather than an empty form. It lives in memory only, and goes with the page.
 */
let remembered: { values: SearchValues; outcome: Outcome | null } = { values: emptySearch, outcome: null };

/** Forgets the last search (at sign-out: the next person at this desk does not see it). */
export function forgetLastSearch(): void {
  remembered = { values: emptySearch, outcome: null };
}

const t = texts.find;
const byOptions = (Object.keys(t.by.options) as Array<keyof typeof t.by.options>).map((value) => ({
  value,
  label: t.by.options[value],
}));

/**
 * Find a customer (issue 41 point 3): by customer id, email, policy number, or surname with date of birth
 * and postcode, with a reason (a ticket or call reference) that is recorded with the search and carried to
 * the record opened from it. Checked when sent (the GOV.UK error summary pattern); the results, "no
 * customer found" or the refusal (429: how long to wait) take focus when they come.
 */
export function FindCustomerPage() {
  useConsoleTitle(t.title);
  const session = useConsoleSession();
  const [values, setValues] = useState<SearchValues>(remembered.values);
  const [errors, setErrors] = useState<SearchErrors>({});
  const [attempt, setAttempt] = useState(0);
  const [outcome, setOutcome] = useState<Outcome | null>(remembered.outcome);
  const [searching, setSearching] = useState(false);
  const outcomeHeading = useRef<HTMLHeadingElement>(null);
  const [announce, setAnnounce] = useState(0);

  useEffect(() => {
    remembered = { values, outcome };
  }, [values, outcome]);

  useEffect(() => {
    if (announce > 0) outcomeHeading.current?.focus();
  }, [announce]);

  const set = (field: SearchField) => (value: string) => setValues((v) => ({ ...v, [field]: value }));

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (searching) return;
    const checked = checkSearch(values);
    setAttempt((n) => n + 1);
    if (checked.errors) {
      setErrors(checked.errors);
      return;
    }
    setErrors({});
    setSearching(true);
    try {
      const found = await staffCall(staffSearchCall, { body: checked.body });
      setOutcome({ kind: 'found', results: found.results, reason: checked.body.reason });
    } catch (error) {
      setOutcome({ kind: 'failed', failure: failureText(error, { search: true }) });
    } finally {
      setSearching(false);
      setAnnounce((n) => n + 1);
    }
  };

  const summary = summaryOf(errors);
  const mayOpen = mayCall(session, staffOpenCustomerCall);
  const mayAudit = mayCall(session, staffAuditTrailCall);

  return (
    <>
      <ErrorSummary errors={summary} focusKey={attempt} />
      <h1>{t.title}</h1>
      <p>{t.intro}</p>
      <form noValidate onSubmit={(event) => void onSubmit(event)} className="staff-form">
        <RadioGroup
          id={ids.by}
          name="by"
          legend={t.by.legend}
          options={byOptions}
          value={values.by}
          error={errors.by}
          onChange={(by) => setValues((v) => ({ ...v, by: by as SearchValues['by'] }))}
        />
        {values.by === 'customerId' ? (
          <TextField
            id={ids.customerId}
            label={t.customerId.label}
            hint={t.customerId.hint}
            value={values.customerId}
            onChange={set('customerId')}
            error={errors.customerId}
            width={10}
            autoComplete="off"
            spellCheck={false}
            required
          />
        ) : null}
        {values.by === 'email' ? (
          <TextField
            id={ids.email}
            label={t.email.label}
            type="email"
            value={values.email}
            onChange={set('email')}
            error={errors.email}
            autoComplete="off"
            spellCheck={false}
            required
          />
        ) : null}
        {values.by === 'policyNumber' ? (
          <TextField
            id={ids.policyNumber}
            label={t.policyNumber.label}
            hint={t.policyNumber.hint}
            value={values.policyNumber}
            onChange={set('policyNumber')}
            error={errors.policyNumber}
            width={20}
            autoComplete="off"
            spellCheck={false}
            required
          />
        ) : null}
        {values.by === 'nameAndBirth' ? (
          <>
            <TextField
              id={ids.surname}
              label={t.surname.label}
              value={values.surname}
              onChange={set('surname')}
              error={errors.surname}
              width={20}
              autoComplete="off"
              spellCheck={false}
              required
            />
            <DateOfBirthField
              id={ids.dateOfBirth}
              label={t.dateOfBirth.label}
              hint={t.dateOfBirth.hint}
              value={values.dateOfBirth}
              onChange={set('dateOfBirth')}
              error={errors.dateOfBirth}
              required
            />
            <TextField
              id={ids.postcode}
              label={t.postcode.label}
              value={values.postcode}
              onChange={set('postcode')}
              error={errors.postcode}
              width={10}
              autoComplete="off"
              spellCheck={false}
              required
            />
          </>
        ) : null}
        <TextField
          id={ids.reason}
          label={t.reason.label}
          hint={t.reason.hint}
          value={values.reason}
          onChange={set('reason')}
          error={errors.reason}
          width={30}
          autoComplete="off"
          required
        />
        <Button type="submit" submitting={searching} submittingText={t.submitting}>
          {t.submit}
        </Button>
      </form>

      {outcome?.kind === 'failed' ? (
        <NotificationBanner key={announce} title={texts.actions.failedTitle} focusOnMount>
          <p>{outcome.failure.message}</p>
        </NotificationBanner>
      ) : null}
      {outcome?.kind === 'found' ? (
        <section aria-labelledby="search-outcome" className="staff-results">
          <h2 id="search-outcome" ref={outcomeHeading} tabIndex={-1}>
            {outcome.results.length === 0
              ? t.noResults.title
              : outcome.results.length === 1
                ? t.resultsTitle.one
                : fillPlaceholders(t.resultsTitle.other, { count: outcome.results.length })}
          </h2>
          {outcome.results.length === 0 ? <p>{t.noResults.body}</p> : null}
          <ul className="staff-results__list" hidden={outcome.results.length === 0}>
            {outcome.results.map((result) => {
              const state: ReasonState = { reason: outcome.reason };
              const forName = fillPlaceholders(t.forCustomer, { name: result.name });
              return (
                <li key={result.customerId} className="staff-results__item">
                  <h3 className="staff-results__name">{result.name}</h3>
                  <dl className="summary-list summary-list--compact">
                    <div>
                      <dt>{t.postcodeStart}</dt>
                      <dd>{result.postcodeStart ?? texts.record.identity.none}</dd>
                    </div>
                    <div>
                      <dt>{t.onlineAccount}</dt>
                      <dd>{t.onlineAccountStates[result.onlineAccount]}</dd>
                    </div>
                  </dl>
                  <p className="staff-results__links">
                    {mayOpen ? (
                      <Link to={consolePaths.record(result.customerId)} state={state}>
                        {t.open} <VisuallyHidden>{forName}</VisuallyHidden>
                      </Link>
                    ) : null}
                    {mayAudit ? (
                      <Link to={consolePaths.auditTrail(result.customerId)} state={state}>
                        {t.auditTrail} <VisuallyHidden>{forName}</VisuallyHidden>
                      </Link>
                    ) : null}
                  </p>
                </li>
              );
            })}
          </ul>
        </section>
      ) : null}
    </>
  );
}
