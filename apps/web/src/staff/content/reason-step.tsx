import { useState, type FormEvent } from 'react';
import { Button } from '../../components/ui/button';
import { ErrorSummary } from '../../components/ui/error-summary';
import { TextField } from '../../components/ui/text-field';
import { checkReason } from '../lib/validation';
import { texts } from './texts';
import { useConsoleTitle } from './use-console-title';

const REASON_ID = 'open-reason';

/**
 * Asks why a record or an audit trail is being opened, when the page was reached without a reason (a
 * bookmark, a link opened in a new tab): a ticket or call reference, recorded with what is opened.
 */
export function ReasonStep({ title, onReason }: { title: string; onReason: (reason: string) => void }) {
  useConsoleTitle(title);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [attempt, setAttempt] = useState(0);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const checked = checkReason(reason);
    setAttempt((n) => n + 1);
    if (checked.error) {
      setError(texts.validation.reason[checked.error]);
      return;
    }
    setError(undefined);
    onReason(checked.value);
  };

  return (
    <>
      <ErrorSummary errors={error ? [{ id: REASON_ID, message: error }] : []} focusKey={attempt} />
      <h1>{title}</h1>
      <p>{texts.reasonStep.intro}</p>
      <form noValidate onSubmit={onSubmit} className="staff-form">
        <TextField
          id={REASON_ID}
          label={texts.find.reason.label}
          hint={texts.find.reason.hint}
          value={reason}
          onChange={setReason}
          error={error}
          width={30}
          autoComplete="off"
          required
        />
        <Button type="submit">{texts.reasonStep.submit}</Button>
      </form>
    </>
  );
}
