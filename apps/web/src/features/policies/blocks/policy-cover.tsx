import type { BlockOf } from '@portal/contracts/content';
import type { Bicycle, LineOfBusiness, Policy, Valuable } from '@portal/contracts/policy';
import { useEffect, useState } from 'react';
import { RichText } from '../../../content/rich-text';
import { formatGbp } from '../../../lib/format';
import { artTypeLabel, coverLabel, homeFirst } from '../../../lib/cover-labels';
import { usePolicyFromUrl } from '../use-policy-from-url';

type Labels = (key: string, fallback: string) => string;

/** Heading levels under the block: the accordions' and, one below, their sections'. */
type Levels = { line: 'h2' | 'h3'; section: 'h3' | 'h4' };

/** Spec §9: valuables, fine art and bicycle lists show at most this many items (content may lower it). */
const MAX_LISTED_ITEMS = 20;
const TOO_MANY_ITEMS_FALLBACK = 'For a full list of your valuables please see your documents';

/**
 * The warning under a list cut at `max` items: content's text, or the spec's fallback, with an error logged
 * when content has none (spec §8: a missing warning-message configuration logs an error).
 */
function tooManyItemsText(block: BlockOf<'policyCoverInsert'>): string {
  return block.tooManyItemsMessage || TOO_MANY_ITEMS_FALLBACK;
}

function isCapped(line: LineOfBusiness, max: number): boolean {
  return line.valuables.length > max || line.bicycles.length > max;
}

const listLimit = (block: BlockOf<'policyCoverInsert'>) => Math.min(block.maxItems, MAX_LISTED_ITEMS);

/** What the cover block logs as errors for a policy (spec §8), once per policy shown. */
function coverProblems(block: BlockOf<'policyCoverInsert'>, policy: Policy | undefined): string[] {
  if (!policy) return [];
  const problems = policy.linesOfBusiness
    .filter((line) => !isExpectedLine(line))
    .map((line) => `Cover: unexpected data for line ${line.type}: no risks, valuables or bicycles`);
  if (!block.tooManyItemsMessage && policy.linesOfBusiness.some((line) => isCapped(line, listLimit(block))))
    problems.push(`Cover: no tooManyItemsMessage configured in content block ${block.id}`);
  return problems;
}

/**
 * Spec §8: a cover structure the screen does not expect renders nothing and logs an error. A line of
 * business with no risks, valuables or bicycles has nothing to show.
 */
function isExpectedLine(line: LineOfBusiness): boolean {
  return line.risks.length + line.valuables.length + line.bicycles.length > 0;
}

function Amount({ label, value }: { label: string; value: number | null }) {
  if (value === null) return null;
  return (
    <div>
      <dt>{label}</dt>
      <dd>{formatGbp(value)}</dd>
    </div>
  );
}

function Text({ label, value }: { label: string; value: string | null }) {
  if (!value) return null;
  return (
    <div>
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}

function ValuableItem({ item, label, unknownArt }: { item: Valuable; label: Labels; unknownArt: string }) {
  return (
    <li className="cover-item">
      <p className="cover-item__title">{item.description || item.category}</p>
      <dl className="summary-list summary-list--compact">
        <Text label={label('category', 'Category')} value={item.category} />
        <Text label={label('artType', 'Type of art')} value={artTypeLabel(item.artType, unknownArt)} />
        <Text label={label('collectionType', 'Collection')} value={item.collectionType} />
        <Text label={label('make', 'Make')} value={item.make} />
        {item.value.visible && <Amount label={label('value', 'Value')} value={item.value.value} />}
        <Amount label={label('replacementCost', 'Replacement cost')} value={item.replacementCost} />
        <Amount label={label('sumInsured', 'Sum insured')} value={item.sumInsured} />
        <Amount label={label('singleItemLimit', 'Single item limit')} value={item.singleItemLimit} />
      </dl>
    </li>
  );
}

function BicycleItem({ item, label }: { item: Bicycle; label: Labels }) {
  return (
    <li className="cover-item">
      <p className="cover-item__title">{item.description}</p>
      {item.value.visible && (
        <dl className="summary-list summary-list--compact">
          <Amount label={label('value', 'Value')} value={item.value.value} />
        </dl>
      )}
    </li>
  );
}

/** A list capped at `max` items, with the content's message when there are more. */
function Capped<T>({
  heading,
  level: Heading,
  items,
  max,
  tooMany,
  render,
}: {
  heading: string;
  level: Levels['section'];
  items: readonly T[];
  max: number;
  tooMany: string;
  render: (item: T, index: number) => React.ReactNode;
}) {
  if (items.length === 0) return null;
  return (
    <>
      <Heading>{heading}</Heading>
      <ul className="cover-items">{items.slice(0, max).map(render)}</ul>
      {items.length > max && <p className="inset-text">{tooMany}</p>}
    </>
  );
}

function LineAccordion({
  policy,
  line,
  block,
  label,
  levels,
  open,
}: {
  policy: Policy;
  line: LineOfBusiness;
  block: BlockOf<'policyCoverInsert'>;
  label: Labels;
  levels: Levels;
  open: boolean;
}) {
  const max = listLimit(block);
  const tooMany = tooManyItemsText(block);
  // The native details keeps its own state; this copy only words the indicator beside the heading.
  const [isOpen, setIsOpen] = useState(open);
  const { line: LineHeading, section: SectionHeading } = levels;
  return (
    <details className="accordion" open={open} onToggle={(event) => setIsOpen(event.currentTarget.open)}>
      <summary className="accordion__summary">
        <LineHeading className="accordion__heading">{coverLabel(policy.productType, line.type)}</LineHeading>
        <span className="accordion__indicator">
          <span className="accordion__chevron" aria-hidden="true" />
          {isOpen ? label('collapse', 'Hide details') : label('expand', 'Show details')}
        </span>
      </summary>
      <div className="accordion__body">
        {line.coverLevel && (
          <p>
            <strong>{label('coverLevel', 'Level of cover')}:</strong> {line.coverLevel}
          </p>
        )}
        {line.risks.map((risk, i) => (
          <div key={`${risk.displayName}-${i}`} className="cover-risk">
            <SectionHeading>{risk.displayName}</SectionHeading>
            {risk.registration && (
              <p>
                <strong>{label('registration', 'Registration')}:</strong> {risk.registration}
              </p>
            )}
            {risk.covers.length > 0 && (
              <>
                <p className="cover-risk__label">{label('covers', 'Included cover')}</p>
                <ul>
                  {risk.covers.map((cover, j) => (
                    <li key={`${cover.type}-${j}`}>{cover.type}</li>
                  ))}
                </ul>
              </>
            )}
          </div>
        ))}
        <Capped
          heading={label('valuables', 'Valuables')}
          level={SectionHeading}
          items={line.valuables}
          max={max}
          tooMany={tooMany}
          render={(item, i) => (
            <ValuableItem key={i} item={item} label={label} unknownArt={block.unknownArtTypeLabel} />
          )}
        />
        <Capped
          heading={label('bicycles', 'Bicycles')}
          level={SectionHeading}
          items={line.bicycles}
          max={max}
          tooMany={tooMany}
          render={(item, i) => <BicycleItem key={i} item={item} label={label} />}
        />
      </div>
    </details>
  );
}

/**
 * Policy cover insert (spec customer-data §2): one accordion per line of business, Home first. The
 * accordions' headings sit one level below the block's heading, or below the page's h1 when the block has
 * none, so no level is skipped.
 */
function PolicyCoverBlock({ block }: { block: BlockOf<'policyCoverInsert'> }) {
  const found = usePolicyFromUrl();
  const shown = found.state === 'ready' ? found.policy : undefined;
  useEffect(() => {
    for (const problem of coverProblems(block, shown)) console.error(problem);
  }, [block, shown]);
  if (found.state === 'error') return <RichText html={block.errorText} className="inset-text" />;
  if (found.state !== 'ready') return null;
  const { policy } = found;
  const label: Labels = (key, fallback) => block.labels[key] ?? fallback;
  const lines = homeFirst(policy.linesOfBusiness).filter(isExpectedLine);
  const levels: Levels = block.heading ? { line: 'h3', section: 'h4' } : { line: 'h2', section: 'h3' };
  return (
    <section className="content-block policy-cover" aria-label={block.heading ?? 'Your cover'}>
      {block.heading && <h2>{block.heading}</h2>}
      <RichText html={block.body} />
      {lines.length === 0 ? (
        <RichText html={block.errorText} className="inset-text" />
      ) : (
        lines.map((line, i) => (
          <LineAccordion
            key={`${line.type}-${i}`}
            policy={policy}
            line={line}
            block={block}
            label={label}
            levels={levels}
            open={lines.length === 1}
          />
        ))
      )}
    </section>
  );
}

export default PolicyCoverBlock;
