import { errorEnvelope } from '@portal/contracts/call';
import {
  contentPreviewCall,
  discardContentDraftCall,
  getContentItemCall,
  publishContentCall,
  rollbackContentCall,
  saveContentDraftCall,
  type ContentChange,
  type ContentItemDetail,
} from '@portal/contracts/staff-content';
import { useEffect, useId, useRef, useState } from 'react';
import { Link, useParams } from 'react-router';
import { Button } from '../../../components/ui/button';
import { ErrorSummary } from '../../../components/ui/error-summary';
import { NotificationBanner } from '../../../components/ui/notification-banner';
import { RadioGroup } from '../../../components/ui/radio-group';
import { TextField } from '../../../components/ui/text-field';
import { ApiError } from '../../../lib/api-client';
import { fillPlaceholders } from '../../../lib/forms/fill-placeholders';
import { failureText, type FailureText } from '../../content/call-errors';
import { contentTexts } from '../../content/content-texts';
import { Loading } from '../../content/page-states';
import { texts } from '../../content/texts';
import { useConsoleTitle } from '../../content/use-console-title';
import { ukDateTime } from '../../lib/format';
import { mayCall, staffCall, useConsoleSession } from '../../session/staff-session';
import { fieldId, ItemForm } from './item-form';

const t = contentTexts.item;

/** The widths a preview is shown at: a phone's (390 px) and a desktop's (1280 px). */
const widths = { phone: 390, desktop: 1280 } as const;

function Changes({ changes, caption }: { changes: readonly ContentChange[]; caption: string }) {
  const captionId = useId();
  if (changes.length === 0) return null;
  return (
    // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
    <div className="staff-table-scroll" role="region" aria-labelledby={captionId} tabIndex={0}>
      <table className="staff-table staff-changes">
        <caption id={captionId} className="staff-caption">
          {caption}
        </caption>
        <thead>
          <tr>
            <th scope="col">{t.field}</th>
            <th scope="col">{t.before}</th>
            <th scope="col">{t.after}</th>
          </tr>
        </thead>
        <tbody>
          {changes.map((c) => (
            <tr key={c.path}>
              <th scope="row">{c.path}</th>
              <td>
                <del>{c.before ?? t.empty}</del>
              </td>
              <td>
                <ins>{c.after ?? t.empty}</ins>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

type Notice =
  { kind: 'done'; text: string; key: number } | { kind: 'failed'; failure: FailureText; key: number };

/**
 * One content item (issue 42): the published version, the file's difference if any, the form to change it
 * (editors), the preview at a phone's and a desktop's width, publishing the submitted change (publishers,
 * never their own unless the portal allows it), and every version with what changed and a rollback.
 */
export function ContentItemPage() {
  const { itemId = '' } = useParams();
  const session = useConsoleSession();
  const [item, setItem] = useState<ContentItemDetail | null>(null);
  const [loadFailed, setLoadFailed] = useState<FailureText | null>(null);
  const [body, setBody] = useState<unknown>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [attempt, setAttempt] = useState(0);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [busy, setBusy] = useState(false);
  const [previewPath, setPreviewPath] = useState('');
  const [preview, setPreview] = useState<{ url: string; width: keyof typeof widths } | null>(null);
  const [reason, setReason] = useState('');
  useConsoleTitle(item?.title ?? t.loading);
  const heading = useRef<HTMLHeadingElement>(null);
  const loaded = item !== null;
  // Once loaded, focus on the page's heading (the page changed while it was on its way).
  useEffect(() => {
    if (loaded) heading.current?.focus();
  }, [loaded]);

  const show = (next: ContentItemDetail) => {
    setItem(next);
    setBody(next.draft?.body ?? next.body);
    setPreviewPath((p) => p || next.previewPaths[0] || '');
  };

  useEffect(() => {
    let live = true;
    staffCall(getContentItemCall, { params: { itemId } })
      .then((answer) => live && show(answer))
      .catch((error: unknown) => live && setLoadFailed(failureText(error)));
    return () => {
      live = false;
    };
  }, [itemId]);

  if (loadFailed) {
    return (
      <>
        <h1>{texts.notFound.title}</h1>
        <p>{loadFailed.message}</p>
        <p>
          <Link to="/content">{t.back}</Link>
        </p>
      </>
    );
  }
  if (!item) return <Loading text={t.loading} />;

  const mayEdit =
    mayCall(session, saveContentDraftCall) && item.kind !== 'maintenance' && item.kind !== 'feature-flags';
  const mayPublish = mayCall(session, publishContentCall);
  const say = (text: string) => setNotice((n) => ({ kind: 'done', text, key: (n?.key ?? 0) + 1 }));
  const fail = (error: unknown) =>
    setNotice((n) => ({
      kind: 'failed',
      failure: failureText(error, { conflict: t.changed }),
      key: (n?.key ?? 0) + 1,
    }));

  const run = async (action: () => Promise<void>) => {
    if (busy) return;
    setBusy(true);
    try {
      await action();
    } catch (error) {
      const envelope = error instanceof ApiError ? errorEnvelope.safeParse(error.body) : undefined;
      if (error instanceof ApiError && error.status === 422 && envelope?.success) {
        setErrors(envelope.data.fieldErrors ?? { body: envelope.data.message });
        setAttempt((n) => n + 1);
      } else fail(error);
    } finally {
      setBusy(false);
    }
  };

  const save = (submit: boolean) =>
    run(async () => {
      const answer = await staffCall(saveContentDraftCall, {
        params: { itemId },
        body: { body, baseVersion: item.version, submit },
      });
      setErrors({});
      show(answer);
      say(submit ? t.submittedDone : t.saved);
    });

  const discard = () =>
    run(async () => {
      show(await staffCall(discardContentDraftCall, { params: { itemId } }));
      say(t.discarded);
    });

  const publish = () =>
    run(async () => {
      const answer = await staffCall(publishContentCall, {
        params: { itemId },
        body: { baseVersion: item.draft!.baseVersion, ...(reason.trim() ? { reason: reason.trim() } : {}) },
      });
      show(answer);
      setReason('');
      setPreview(null);
      say(fillPlaceholders(t.published_, { version: answer.version }));
    });

  const rollback = (version: number) =>
    run(async () => {
      const answer = await staffCall(rollbackContentCall, {
        params: { itemId },
        body: { version, ...(reason.trim() ? { reason: reason.trim() } : {}) },
      });
      show(answer);
      say(fillPlaceholders(t.rolledBack, { version, now: answer.version }));
    });

  const openPreview = (width: keyof typeof widths) =>
    run(async () => {
      const answer = await staffCall(contentPreviewCall, { params: { itemId }, body: { path: previewPath } });
      setPreview({ url: answer.url, width });
    });

  const summary = Object.entries(errors).map(([path, message]) => ({
    id: fieldId(path),
    message: `${path}: ${message}`,
  }));
  const current = item.history[0];

  return (
    <>
      <p>
        <Link to="/content">{t.back}</Link>
      </p>
      <ErrorSummary errors={summary} focusKey={attempt} />
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
      <h1 ref={heading} tabIndex={-1}>
        {item.title}
      </h1>
      {current ? (
        <p>
          {fillPlaceholders(t.published, {
            version: item.version,
            name: current.published.name,
            at: ukDateTime(current.published.at),
          })}
        </p>
      ) : null}
      {item.fileDiffers ? (
        <NotificationBanner title={t.fileDiffersTitle}>
          <p>{fillPlaceholders(t.fileDiffers, { at: ukDateTime(item.fileDiffers.detectedAt) })}</p>
          <Changes changes={item.fileDiffers.changes} caption={t.fileDiffersTitle} />
        </NotificationBanner>
      ) : null}

      {item.draft ? (
        <section aria-labelledby="draft-heading">
          <h2 id="draft-heading">{t.draftTitle}</h2>
          <p>
            {fillPlaceholders(t.draftBy, {
              state: item.draft.state === 'submitted' ? t.stateSubmitted : t.stateEditing,
              name: item.draft.editedBy,
              at: ukDateTime(item.draft.at),
            })}
          </p>
          <Changes changes={item.draft.changes} caption={t.changesCaption} />
        </section>
      ) : null}

      {mayEdit ? (
        <section aria-labelledby="edit-heading">
          <h2 id="edit-heading">{t.editTitle}</h2>
          <p>{t.editIntro}</p>
          <form
            noValidate
            className="staff-form"
            onSubmit={(event) => {
              event.preventDefault();
              void save(true);
            }}
          >
            <ItemForm body={body} shape={item.body} onChange={setBody} errors={errors} />
            <div className="staff-actions">
              <Button type="submit" submitting={busy}>
                {t.submit}
              </Button>
              <Button variant="secondary" onClick={() => void save(false)}>
                {t.saveDraft}
              </Button>
              {item.draft ? (
                <Button variant="warning" onClick={() => void discard()}>
                  {t.discard}
                </Button>
              ) : null}
            </div>
          </form>
        </section>
      ) : null}

      <section aria-labelledby="preview-heading">
        <h2 id="preview-heading">{t.previewTitle}</h2>
        {item.previewPaths.length === 0 ? (
          <p>{t.previewNone}</p>
        ) : (
          <>
            <p>{t.previewIntro}</p>
            <RadioGroup
              id="preview-path"
              name="previewPath"
              legend={t.previewPage}
              options={item.previewPaths.map((path) => ({ value: path, label: path }))}
              value={previewPath}
              onChange={setPreviewPath}
            />
            <div className="staff-actions">
              <Button variant="secondary" onClick={() => void openPreview('phone')}>
                {t.previewPhone}
              </Button>
              <Button variant="secondary" onClick={() => void openPreview('desktop')}>
                {t.previewDesktop}
              </Button>
            </div>
            {preview ? (
              // A region of its own that scrolls sideways (by keyboard too) when the preview is wider.
              <div
                className="staff-table-scroll staff-preview-scroll"
                role="region"
                aria-label={t.previewTitle}
                // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
                tabIndex={0}
              >
                <iframe
                  key={preview.url}
                  className="staff-preview"
                  src={preview.url}
                  width={widths[preview.width]}
                  height={760}
                  title={fillPlaceholders(t.previewFrame, {
                    path: previewPath,
                    width: preview.width === 'phone' ? t.phone : t.desktop,
                  })}
                />
              </div>
            ) : null}
          </>
        )}
      </section>

      {mayPublish ? (
        <section aria-labelledby="publish-heading">
          <h2 id="publish-heading">{t.publishTitle}</h2>
          <TextField
            id="publish-reason"
            label={t.publishReason}
            hint={t.publishReasonHint}
            value={reason}
            width={30}
            onChange={setReason}
          />
          {item.draft?.state === 'submitted' ? (
            item.draft.mayPublish ? (
              <Button onClick={() => void publish()} submitting={busy}>
                {t.publish}
              </Button>
            ) : (
              <p>{t.ownChange}</p>
            )
          ) : (
            <p>{t.notSubmitted}</p>
          )}
        </section>
      ) : null}

      <section aria-labelledby="history-heading">
        <h2 id="history-heading">{t.historyTitle}</h2>
        <ol className="staff-history" reversed>
          {item.history.map((v) => (
            <li key={v.version}>
              <h3>
                {t.versionCol} {v.version}
              </h3>
              <p>
                {ukDateTime(v.published.at)} · {v.published.name} ·{' '}
                {v.source === 'console'
                  ? fillPlaceholders(t.source.console, { name: v.editedBy ?? v.published.name })
                  : v.source === 'rollback'
                    ? fillPlaceholders(t.source.rollback, { version: v.restoredVersion ?? '' })
                    : t.source[v.source]}
                {v.reason ? ` · ${fillPlaceholders(t.reason, { reason: v.reason })}` : ''}
              </p>
              {v.changes.length > 0 ? (
                <Changes changes={v.changes} caption={`${t.whatCol}: ${t.versionCol} ${v.version}`} />
              ) : null}
              {mayPublish &&
              v.version !== item.version &&
              item.kind !== 'maintenance' &&
              item.kind !== 'feature-flags' ? (
                <Button variant="secondary" onClick={() => void rollback(v.version)}>
                  {fillPlaceholders(t.rollback, { version: v.version })}
                </Button>
              ) : null}
            </li>
          ))}
        </ol>
      </section>
    </>
  );
}
