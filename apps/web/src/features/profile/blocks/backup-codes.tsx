import type { BlockOf } from '@portal/contracts/content';
import type { BackupCodes } from '@portal/contracts/sign-in-methods';
import { useEffect, useRef, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/modal';
import { fillPlaceholders } from '../../../content/placeholders';
import { RichText } from '../../../content/rich-text';
import { formatLongDate } from '../../../lib/format';
import { useCurrentUser } from '../../../session/tokens';
import { createBackupCodes } from '../api/create-backup-codes';
import { removeSignInMethod } from '../api/remove-sign-in-method';
import { useSignInMethods } from '../use-sign-in-methods';
import { ReauthenticationCancelled, useReauthenticate } from '../reauthenticate';

type Block = BlockOf<'backupCodes'>;

/** The text file the customer downloads: what the codes are and when they were made, then one a line. */
export function backupCodesFile(block: Block, created: BackupCodes): string {
  const date = formatLongDate(created.createdAt);
  return [fillPlaceholders(block.shown.fileHeading, { date }), '', ...created.codes, ''].join('\r\n');
}

function download(name: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** The new codes, shown once: a list, Print (only this panel prints), Download, and "I have saved my codes". */
function CodesPanel({ block, created, onDone }: { block: Block; created: BackupCodes; onDone: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  const listId = `${block.id}-list`;
  useEffect(() => {
    heading.current?.focus();
    document.documentElement.classList.add('printing-backup-codes');
    return () => document.documentElement.classList.remove('printing-backup-codes');
  }, []);
  return (
    <div className="sign-in-method-panel backup-codes-print">
      <h3 ref={heading} tabIndex={-1}>
        {block.shown.heading}
      </h3>
      <div className="no-print">
        <RichText html={block.shown.body} />
      </div>
      <p id={listId} className="visually-hidden">
        {block.shown.listLabel}
      </p>
      <ol className="backup-codes-list" aria-labelledby={listId}>
        {created.codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
      <div className="cta-list no-print">
        <Button variant="secondary" onClick={() => window.print()}>
          {block.shown.printText}
        </Button>
        <Button
          variant="secondary"
          onClick={() => download(block.shown.fileName, backupCodesFile(block, created))}
        >
          {block.shown.downloadText}
        </Button>
        <Button onClick={onDone}>{block.shown.doneText}</Button>
      </div>
    </div>
  );
}

/**
 * Backup codes (issue 25, decision 023): how many are left; creating a set (a new set replaces the old one,
 * after a warning), shown this once with print and download; removing them. Changes need a recent sign-in
 * (the password dialog of reauthenticate.tsx).
 */
function BackupCodesBlock({ block }: { block: Block }) {
  const user = useCurrentUser();
  const customerId = user?.customerId;
  const { methods, refresh } = useSignInMethods(customerId);
  const { guarded, dialog } = useReauthenticate(customerId, block.reauthenticate);
  const [created, setCreated] = useState<BackupCodes | null>(null);
  const [confirm, setConfirm] = useState<'replace' | 'remove' | null>(null);
  const [failure, setFailure] = useState<'create' | 'remove' | null>(null);
  const [removed, setRemoved] = useState(false);
  const [busy, setBusy] = useState(false);
  const opener = useRef<HTMLButtonElement>(null);
  const status = useRef<HTMLDivElement>(null);

  if (!customerId) return null;
  const headingId = `${block.id}-heading`;
  const set = methods.data?.find((m) => m.type === 'backup_codes' && m.status === 'ACTIVE');
  const left = set?.codesLeft ?? 0;

  const create = async () => {
    setConfirm(null);
    if (busy) return;
    setBusy(true);
    setFailure(null);
    setRemoved(false);
    try {
      setCreated(await guarded(() => createBackupCodes(customerId)));
      void refresh();
    } catch (error) {
      if (!(error instanceof ReauthenticationCancelled)) setFailure('create');
    } finally {
      setBusy(false);
    }
  };

  const remove = async () => {
    setConfirm(null);
    if (!set || busy) return;
    setBusy(true);
    setFailure(null);
    try {
      await guarded(() => removeSignInMethod(customerId, set.id));
      setRemoved(true);
      await refresh();
      status.current?.focus();
    } catch (error) {
      if (!(error instanceof ReauthenticationCancelled)) setFailure('remove');
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="content-block" aria-labelledby={headingId}>
      <h2 id={headingId} tabIndex={-1}>
        {block.heading}
      </h2>
      <RichText html={block.body} />
      <div aria-live="polite" ref={status} tabIndex={-1}>
        {removed && <RichText html={block.removedMessage} className="message message--success" />}
      </div>
      {failure && (
        <div role="alert">
          <RichText
            html={failure === 'create' ? block.errorMessage : block.remove.errorMessage}
            className="message message--error"
          />
        </div>
      )}
      {methods.isPending ? (
        <p className="block-loading">{block.loadingText}</p>
      ) : methods.isError ? (
        <RichText html={block.loadErrorMessage} className="message message--error" />
      ) : created ? null : (
        <p>{set ? fillPlaceholders(block.codesLeftText, { count: left }) : block.noneText}</p>
      )}
      {created ? (
        <CodesPanel
          block={block}
          created={created}
          onDone={() => {
            setCreated(null);
            // The panel and its buttons are gone: the block's heading keeps the customer's place.
            document.getElementById(headingId)?.focus();
          }}
        />
      ) : (
        methods.isSuccess && (
          <div className="cta-list">
            <Button
              ref={opener}
              variant={set ? 'secondary' : 'primary'}
              submitting={busy}
              submittingText={block.loadingText}
              onClick={() => (set ? setConfirm('replace') : void create())}
            >
              {set ? block.createNewText : block.createText}
            </Button>
            {set && (
              <Button variant="secondary" onClick={() => setConfirm('remove')}>
                {block.removeText}
              </Button>
            )}
          </div>
        )
      )}
      {confirm && (
        <Modal
          open
          title={confirm === 'replace' ? block.createNewText : block.remove.heading}
          onClose={() => setConfirm(null)}
          closeLabel={confirm === 'replace' ? block.cancelText : block.remove.cancelText}
        >
          <RichText html={confirm === 'replace' ? block.replaceWarning : block.remove.body} />
          <div className="cta-list">
            <Button variant="warning" onClick={() => void (confirm === 'replace' ? create() : remove())}>
              {confirm === 'replace' ? block.replaceConfirmText : block.remove.confirmText}
            </Button>
            <Button variant="secondary" onClick={() => setConfirm(null)}>
              {confirm === 'replace' ? block.cancelText : block.remove.cancelText}
            </Button>
          </div>
        </Modal>
      )}
      {dialog}
    </section>
  );
}

export default BackupCodesBlock;
