import { useState } from 'react';
import { RichText } from './rich-text';

export interface DocumentRowProps {
  name: string;
  /** Extra detail beside the name, such as the date. */
  detail?: string;
  buttonText: string;
  /** Content's file error, shown beside this document when it cannot be opened. */
  fileError: string;
  onDownload: () => Promise<unknown>;
  /** Not opened yet (issue 40): marked with `newText` until it is opened here or on another device. */
  isNew?: boolean;
  newText?: string;
}

/**
 * One downloadable document (policy documents, bills): its name, a button naming it for screen readers,
 * and the file error beside it when the download fails (spec customer-data §2, §8).
 */
export function DocumentRow({
  name,
  detail,
  buttonText,
  fileError,
  onDownload,
  isNew = false,
  newText = 'New',
}: DocumentRowProps) {
  const [state, setState] = useState<'idle' | 'busy' | 'failed'>('idle');
  // Opened here: the mark goes at once (the service has recorded it for every device).
  const [opened, setOpened] = useState(false);
  const marked = isNew && !opened;
  return (
    <li className="document-row">
      <span className="document-row__name">
        {marked && <strong className="tag tag--yellow document-row__new">{newText}</strong>} {name}
        {detail && <span className="document-row__detail"> {detail}</span>}
      </span>
      <button
        type="button"
        className="button button--secondary"
        aria-busy={state === 'busy'}
        onClick={() => {
          setState('busy');
          onDownload().then(
            () => {
              setState('idle');
              setOpened(true);
            },
            () => setState('failed'),
          );
        }}
      >
        {/* The space sits outside the hidden span so every name computation keeps the two words apart. */}
        {buttonText}{' '}
        <span className="visually-hidden">
          {name}
          {marked && ` (${newText})`}
        </span>
      </button>
      {state === 'failed' && (
        <div role="alert" className="file-error">
          <RichText html={fileError} />
        </div>
      )}
    </li>
  );
}
