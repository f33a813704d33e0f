import type { BlockOf } from '@portal/contracts/content';
import type { SignInMethod } from '@portal/contracts/sign-in-methods';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/modal';
import { NotificationBanner } from '../../../components/ui/notification-banner';
import { SummaryRow } from '../../../components/ui/summary-row';
import { TextField } from '../../../components/ui/text-field';
import { fillPlaceholders } from '../../../content/placeholders';
import { RichText } from '../../../content/rich-text';
import { useSiteSettings } from '../../../content/use-site-settings';
import { ApiError } from '../../../lib/api-client';
import { useCurrentUser } from '../../../session/tokens';
import { createPasskey, PasskeyPromptFailed } from '../create-passkey';
import { useSignInMethods } from '../use-sign-in-methods';
import { removeSignInMethod } from '../api/remove-sign-in-method';
import { renamePasskey } from '../api/rename-passkey';
import { formatPasswordDate } from '../password-date';
import { ReauthenticationCancelled, useReauthenticate } from '../reauthenticate';

type Block = BlockOf<'passkeys'>;
type Outcome = 'added' | 'renamed' | 'removed';
type Problem = 'addFailed' | 'update';

/** The name rule of the contract: 1 to 60 characters once trimmed. */
const nameValid = (name: string) => name.trim().length >= 1 && name.trim().length <= 60;

/** The name form of adding and renaming: keeps what was typed when the save fails. */
function NameForm({
  block,
  idSuffix,
  initial,
  submitText,
  busy,
  onSubmit,
  onCancel,
}: {
  block: Block;
  idSuffix: string;
  initial: string;
  submitText: string;
  busy: boolean;
  onSubmit: (name: string) => void;
  onCancel: () => void;
}) {
  const settings = useSiteSettings();
  const [name, setName] = useState(initial);
  const [revealed, setRevealed] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.focus(), []);
  const error = revealed && !nameValid(name) ? block.nameField.errorMessage : null;
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    if (!nameValid(name)) {
      setRevealed(true);
      input.current?.focus();
      return;
    }
    onSubmit(name.trim());
  };
  return (
    <form noValidate onSubmit={submit} className="passkeys__form">
      <TextField
        ref={input}
        id={`${block.nameField.id}-${idSuffix}`}
        label={block.nameField.label}
        hint={block.nameField.subLabel}
        value={name}
        onChange={(value) => setName(value)}
        error={error}
        required
        maxLength={block.nameField.maxLength ?? 60}
        autoComplete="off"
      />
      <div className="cta-list">
        <Button type="submit" submitting={busy} submittingText={settings.commonTexts['loading']}>
          {submitText}
        </Button>
        <Button variant="secondary" onClick={onCancel}>
          {block.cancelText}
        </Button>
      </div>
    </form>
  );
}

/**
 * The profile's passkeys (issue 25, decision 024): what a passkey is, the customer's passkeys with their
 * name, when each was added and last used, and adding (a name, then the browser's prompt), renaming and
 * removing one (after a confirmation). Each outcome is announced; a failed save says so and keeps the name.
 * Adding and removing ask for the password first when the sign-in is not recent (reauthenticate.tsx).
 */
function PasskeysBlock({ block }: { block: Block }) {
  const user = useCurrentUser();
  const customerId = user?.customerId;
  const [supported, setSupported] = useState<boolean | null>(null);
  const [adding, setAdding] = useState(false);
  const [renaming, setRenaming] = useState<string | null>(null);
  const [removing, setRemoving] = useState<SignInMethod | null>(null);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ kind: Outcome; n: number } | null>(null);
  const [problem, setProblem] = useState<{ kind: Problem; n: number } | null>(null);
  const addButton = useRef<HTMLButtonElement>(null);
  const counter = useRef(0);
  const headingId = `${block.id}-heading`;
  // Adding and removing need a recent sign-in: the password dialog asks, then the change is made again.
  const { guarded, dialog } = useReauthenticate(customerId, block.reauthenticate);

  useEffect(() => {
    let live = true;
    void import('@simplewebauthn/browser')
      .then(({ browserSupportsWebAuthn }) => live && setSupported(browserSupportsWebAuthn()))
      .catch(() => live && setSupported(false));
    return () => {
      live = false;
    };
  }, []);

  const { methods, refresh } = useSignInMethods(customerId);
  const passkeys = (methods.data ?? []).filter((m) => m.type === 'passkey');

  const done = async (kind: Outcome) => {
    counter.current += 1;
    setProblem(null);
    setOutcome({ kind, n: counter.current });
    await refresh();
  };
  /** A failed change; closing the password dialog is no failure (nothing changed, nothing to say). */
  const fail = (kind: Problem, error?: unknown) => {
    if (error instanceof ReauthenticationCancelled) return;
    counter.current += 1;
    setOutcome(null);
    setProblem({ kind, n: counter.current });
  };

  const add = async (name: string) => {
    if (!customerId) return;
    setBusy(true);
    setProblem(null);
    try {
      await createPasskey(customerId, name, guarded);
      setAdding(false);
      await done('added');
    } catch (error) {
      const refused =
        error instanceof PasskeyPromptFailed || (error instanceof ApiError && error.status === 400);
      fail(refused ? 'addFailed' : 'update', error);
    } finally {
      setBusy(false);
    }
  };

  const rename = async (id: string, name: string) => {
    if (!customerId) return;
    setBusy(true);
    try {
      await renamePasskey(customerId, id, name);
      setRenaming(null);
      await done('renamed');
    } catch (error) {
      fail('update', error);
    } finally {
      setBusy(false);
    }
  };

  const remove = async (method: SignInMethod) => {
    if (!customerId) return;
    // The confirmation closes first: a password dialog may follow, and one dialog shows at a time.
    setRemoving(null);
    setBusy(true);
    try {
      await guarded(() => removeSignInMethod(customerId, method.id));
      await done('removed');
    } catch (error) {
      fail('update', error);
    } finally {
      setBusy(false);
    }
  };

  const outcomeHtml = outcome
    ? { added: block.addedMessage, renamed: block.renamedMessage, removed: block.removedMessage }[
        outcome.kind
      ]
    : null;
  const problemHtml = problem
    ? { addFailed: block.addFailedMessage, update: block.updateErrorMessage }[problem.kind]
    : null;

  return (
    <section className="content-block passkeys" aria-labelledby={headingId}>
      <h2 id={headingId}>{block.heading}</h2>
      <RichText html={block.intro} />
      {outcomeHtml && (
        <NotificationBanner key={outcome!.n} variant="success">
          <RichText html={outcomeHtml} />
        </NotificationBanner>
      )}
      {problemHtml && (
        <NotificationBanner key={problem!.n} variant="important" focusOnMount>
          <RichText html={problemHtml} />
        </NotificationBanner>
      )}
      {methods.isPending && customerId ? (
        <p className="block-loading">{block.loadingText}</p>
      ) : methods.isError ? (
        <div role="alert">
          <RichText html={block.errorText} className="inset-text" />
        </div>
      ) : passkeys.length === 0 ? (
        <RichText html={block.noPasskeysText} />
      ) : (
        <ul className="passkeys__list" aria-label={block.heading}>
          {passkeys.map((p) => (
            <li key={p.id} className="passkeys__item">
              <h3 className="passkeys__name">{p.label}</h3>
              <dl className="summary-list">
                <SummaryRow label={block.addedLabel}>{formatPasswordDate(p.addedAt) ?? ''}</SummaryRow>
                <SummaryRow label={block.lastUsedLabel}>
                  {formatPasswordDate(p.lastUsedAt) ?? block.neverUsedText}
                </SummaryRow>
              </dl>
              {renaming === p.id ? (
                <NameForm
                  block={block}
                  idSuffix={p.id}
                  initial={p.label}
                  submitText={block.renameSubmitText}
                  busy={busy}
                  onSubmit={(name) => void rename(p.id, name)}
                  onCancel={() => setRenaming(null)}
                />
              ) : (
                <div className="cta-list">
                  <Button
                    variant="secondary"
                    aria-label={`${block.renameButtonText}: ${p.label}`}
                    onClick={() => setRenaming(p.id)}
                  >
                    {block.renameButtonText}
                  </Button>
                  <Button
                    variant="warning"
                    aria-label={`${block.removeButtonText}: ${p.label}`}
                    onClick={() => setRemoving(p)}
                  >
                    {block.removeButtonText}
                  </Button>
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
      {supported === false ? (
        <RichText html={block.notSupportedText} className="inset-text" />
      ) : adding ? (
        <NameForm
          block={block}
          idSuffix="new"
          initial={block.defaultName}
          submitText={block.addSubmitText}
          busy={busy}
          onSubmit={(name) => void add(name)}
          onCancel={() => {
            setAdding(false);
            addButton.current?.focus();
          }}
        />
      ) : supported ? (
        <Button ref={addButton} onClick={() => setAdding(true)}>
          {block.addButtonText}
        </Button>
      ) : null}
      {removing && (
        <Modal
          open
          role="alertdialog"
          title={fillPlaceholders(block.removeHeading, { name: removing.label })}
          onClose={() => setRemoving(null)}
          closeLabel={block.cancelText}
        >
          <RichText html={block.removeBody} />
          <div className="cta-list">
            <Button
              variant="warning"
              submitting={busy}
              submittingText={block.loadingText}
              onClick={() => void remove(removing)}
            >
              {block.removeConfirmText}
            </Button>
            <Button variant="secondary" onClick={() => setRemoving(null)}>
              {block.cancelText}
            </Button>
          </div>
        </Modal>
      )}
      {dialog}
    </section>
  );
}

export default PasskeysBlock;
