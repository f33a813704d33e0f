import type { BlockOf } from '@portal/contracts/content';
import type { Quote } from '@portal/contracts/policy';
import { useState } from 'react';
import { CallToActionList } from '../../../content/call-to-action';
import { fillPlaceholders, telHref } from '../../../content/placeholders';
import { PolicySystemLink } from '../../../content/policy-system-link';
import { RichText } from '../../../content/rich-text';
import { formatLongDate } from '../../../lib/format';
import { useCurrentUser } from '../../../session/tokens';
import { downloadQuoteDocument } from '../api/download-quote-document';
import { useCustomerData } from '../../../content/use-customer-data';
import { useOptionalSiteSettings } from '../../../content/use-site-settings';

/** The product's name from settings' policyTypeMappingText ("PHL" -> "Home Insurance"), else its code. */
function productNameOf(productType: string, mapping: Readonly<Record<string, string>> | undefined): string {
  return mapping?.[productType] ?? productType;
}

/**
 * The content's reason, with the site's freephone number in it as a link to call it: the content service
 * has written the number where content says `{phone}` (a text not served by it may still say `{phone}`).
 */
function ByPhoneText({ text, phone }: { text: string; phone: string | null }) {
  const [before, after] = text.split(text.includes('{phone}') || !phone ? '{phone}' : phone, 2);
  if (after === undefined || !phone) return <>{fillPlaceholders(text, { phone: phone ?? '' })}</>;
  return (
    <>
      {before}
      <a href={telHref(phone)} className="nowrap">
        {phone}
      </a>
      {after}
    </>
  );
}

function QuoteCard({
  quote,
  block,
  customerId,
}: {
  quote: Quote;
  block: BlockOf<'quotes'>;
  customerId: string;
}) {
  const settings = useOptionalSiteSettings();
  const [failed, setFailed] = useState<string | null>(null);
  const online = quote.quoteActions.onlineQuoteAndBuy;
  const canContinue = online.enabled && online.url !== null;
  const reasonId = `quote-${quote.quoteNumber}-by-phone`;
  return (
    <li className="policy-card">
      <h3 className="policy-card__title">
        {productNameOf(quote.productType, settings?.policyTypeMappingText)}
      </h3>
      <dl className="summary-list">
        <div>
          <dt>{block.labels['quoteNumber'] ?? 'Quote reference'}</dt>
          <dd>{quote.quoteNumber}</dd>
        </div>
        <div>
          <dt>{block.labels['startDate'] ?? 'Cover would start'}</dt>
          <dd>{formatLongDate(quote.startDate)}</dd>
        </div>
      </dl>
      <div className="cta-list">
        {quote.documents.documentSummaries.map((doc) => (
          <button
            key={doc.id}
            type="button"
            className="button button--secondary"
            onClick={() => {
              setFailed(null);
              downloadQuoteDocument(
                customerId,
                quote.quoteNumber,
                doc.id,
                `${doc.name} ${quote.quoteNumber}`,
              ).catch(() => setFailed(doc.id));
            }}
          >
            {block.downloadText}
            <span className="visually-hidden">
              {' '}
              {doc.name} {quote.quoteNumber}
            </span>
          </button>
        ))}
        {canContinue && online.url ? (
          <PolicySystemLink href={online.url} className="button">
            {block.continueOnlineText}
            <span className="visually-hidden"> {quote.quoteNumber}</span>
          </PolicySystemLink>
        ) : (
          // aria-disabled rather than disabled: it stays in the tab order, so a keyboard or screen reader
          // user meets it and hears why it does nothing (the reason below, tied by aria-describedby).
          <button type="button" className="button" aria-disabled="true" aria-describedby={reasonId}>
            {block.continueOnlineText}
            <span className="visually-hidden"> {quote.quoteNumber}</span>
          </button>
        )}
      </div>
      {!canContinue && (
        <p id={reasonId} className="quote-card__reason">
          <ByPhoneText text={block.continueByPhoneText} phone={settings?.infinityPhoneTracking ?? null} />
        </p>
      )}
      {failed && <RichText html={block.fileError} className="file-error" />}
    </li>
  );
}

/** The customer's quotes with download and continue-online buttons, or the no-quotes block. */
function QuotesBlock({ block }: { block: BlockOf<'quotes'> }) {
  const { data } = useCustomerData();
  const user = useCurrentUser();
  if (!data || !user) return null;
  const headingId = `${block.id}-heading`;
  const quotes = data.quotes ?? [];
  if (quotes.length === 0) {
    return (
      <section className="dashboard-block" aria-labelledby={headingId}>
        <h2 id={headingId}>{block.noQuotes.heading ?? block.heading}</h2>
        <RichText html={block.noQuotes.body} />
        <CallToActionList items={block.noQuotes.callsToAction} />
      </section>
    );
  }
  return (
    <section className="dashboard-block" aria-labelledby={headingId}>
      <h2 id={headingId}>{block.heading}</h2>
      <RichText html={block.body} />
      <ul className="card-grid">
        {quotes.map((quote) => (
          <QuoteCard key={quote.quoteNumber} quote={quote} block={block} customerId={user.customerId} />
        ))}
      </ul>
    </section>
  );
}

export default QuotesBlock;
