import { listContentItemsCall, type ContentItemSummary } from '@portal/contracts/staff-content';
import { useEffect, useId, useState } from 'react';
import { Link } from 'react-router';
import { fillPlaceholders } from '../../../lib/forms/fill-placeholders';
import { failureText, type FailureText } from '../../content/call-errors';
import { contentTexts } from '../../content/content-texts';
import { Loading } from '../../content/page-states';
import { useConsoleTitle } from '../../content/use-console-title';
import { ukDateTime } from '../../lib/format';
import { staffCall } from '../../session/staff-session';

const t = contentTexts.list;

/**
 * The site's content items (issue 42): each with its published version, who published it and when, its
 * draft (being edited or submitted) and whether its file in content/ says something else.
 */
export function ContentListPage() {
  useConsoleTitle(t.title);
  const captionId = useId();
  const [items, setItems] = useState<ContentItemSummary[] | null>(null);
  const [failed, setFailed] = useState<FailureText | null>(null);

  useEffect(() => {
    let live = true;
    staffCall(listContentItemsCall)
      .then((answer) => live && setItems(answer.items))
      .catch((error: unknown) => live && setFailed(failureText(error)));
    return () => {
      live = false;
    };
  }, []);

  return (
    <>
      <h1>{t.title}</h1>
      <p>{t.intro}</p>
      {failed ? <p role="alert">{failed.message}</p> : null}
      {!items && !failed ? <Loading text={t.loading} /> : null}
      {items ? (
        // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
        <div className="staff-table-scroll" role="region" aria-labelledby={captionId} tabIndex={0}>
          <table className="staff-table">
            <caption id={captionId} className="staff-caption">
              {t.caption}
            </caption>
            <thead>
              <tr>
                <th scope="col">{t.item}</th>
                <th scope="col">{t.version}</th>
                <th scope="col">{t.publishedBy}</th>
                <th scope="col">{t.draft}</th>
              </tr>
            </thead>
            <tbody>
              {items.map((item) => (
                <tr key={item.id}>
                  <th scope="row">
                    <Link to={`/content/${encodeURIComponent(item.id)}`}>{item.title}</Link>
                    {item.fileDiffers ? (
                      <>
                        <br />
                        <strong className="staff-tag">{t.fileDiffers}</strong>
                      </>
                    ) : null}
                  </th>
                  <td>{item.version}</td>
                  <td>
                    {item.published.name}
                    <br />
                    {ukDateTime(item.published.at)}
                  </td>
                  <td>
                    {item.draft
                      ? fillPlaceholders(item.draft.state === 'submitted' ? t.submitted : t.editing, {
                          name: item.draft.editedBy,
                        })
                      : t.noDraft}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </>
  );
}
