import type { BlockOf } from '@portal/contracts/content';
import type { ShareCode } from '@portal/contracts/screen-share';
import { useRef, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { fillPlaceholders } from '../../../content/placeholders';
import { RichText } from '../../../content/rich-text';
import { ApiError } from '../../../lib/api-client';
import { formatUkTime } from '../../../lib/format';
import { useCurrentUser } from '../../../session/tokens';
import { createShareCode } from '../api/share-code';

type Block = BlockOf<'screenShare'>;

/** "482 913": read out in two groups of three. */
const spaced = (code: string) => `${code.slice(0, 3)} ${code.slice(3)}`;

/**
 * "Share your screen with us" (issue 41 point 6, decision 039): the customer gets a one-time code to read
 * to the contact centre, who can then see their account read only. The code is shown large, in two
 * groups, with when it stops working; it is announced in a polite live region that takes the focus.
 * Getting a new one replaces it. A shared view itself never offers this (the server refuses it too).
 */
function ScreenShareBlock({ block }: { block: Block }) {
  const user = useCurrentUser();
  const [code, setCode] = useState<ShareCode | null>(null);
  const [failure, setFailure] = useState<'error' | 'tooMany' | null>(null);
  const [busy, setBusy] = useState(false);
  const status = useRef<HTMLDivElement>(null);
  if (!user || user.onBehalfOf?.startsWith('staff:')) return null;
  const customerId = user.customerId;
  const headingId = `${block.id}-heading`;

  const getCode = async () => {
    if (busy) return;
    setBusy(true);
    setFailure(null);
    try {
      setCode(await createShareCode(customerId));
    } catch (error) {
      setCode(null);
      setFailure(error instanceof ApiError && error.status === 429 ? 'tooMany' : 'error');
    } finally {
      setBusy(false);
      status.current?.focus();
    }
  };

  return (
    <section className="content-block" aria-labelledby={headingId}>
      <h2 id={headingId}>{block.heading}</h2>
      <RichText html={block.body} />
      <div aria-live="polite" ref={status} tabIndex={-1}>
        {code && (
          <div className="share-code">
            <p className="share-code__label">{block.codeLabel}</p>
            <p className="share-code__digits" aria-label={code.code.split('').join(' ')}>
              {spaced(code.code)}
            </p>
            <RichText html={fillPlaceholders(block.codeBody, { time: formatUkTime(code.expiresAt) })} />
          </div>
        )}
        {failure && (
          <RichText
            html={failure === 'tooMany' ? block.tooManyMessage : block.errorMessage}
            className="message message--error"
          />
        )}
      </div>
      <div className="cta-list">
        <Button
          variant="secondary"
          submitting={busy}
          submittingText={block.loadingText}
          onClick={() => void getCode()}
        >
          {code ? block.newCodeText : block.getCodeText}
        </Button>
      </div>
    </section>
  );
}

export default ScreenShareBlock;
