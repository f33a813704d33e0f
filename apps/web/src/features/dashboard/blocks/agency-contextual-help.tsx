import type { BlockOf } from '@portal/contracts/content';
import { RichText } from '../../../content/rich-text';

/** Agency contextual help: a heading and text from content. */
function AgencyContextualHelpBlock({ block }: { block: BlockOf<'agencyContextualHelp'> }) {
  const headingId = `${block.id}-heading`;
  return (
    <section className="dashboard-block contextual-help" aria-labelledby={headingId}>
      <h2 id={headingId}>{block.heading}</h2>
      <RichText html={block.body} />
    </section>
  );
}

export default AgencyContextualHelpBlock;
