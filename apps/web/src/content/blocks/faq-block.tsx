import type { BlockOf } from '@portal/contracts/content';
import { RichText } from '../rich-text';

/** Questions as native disclosures: keyboard and screen-reader support come with the element. */
export function FaqBlock({ block }: { block: BlockOf<'faq'> }) {
  return (
    <section className="block">
      {block.heading ? <h2>{block.heading}</h2> : null}
      <div className="faq">
        {block.items.map((item) => (
          <details key={item.id} className="faq__item">
            <summary className="faq__question">{item.question}</summary>
            <RichText html={item.answer} className="faq__answer" />
          </details>
        ))}
      </div>
    </section>
  );
}
