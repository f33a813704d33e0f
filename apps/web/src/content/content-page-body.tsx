import type { Experiment, PageContent } from '@portal/contracts/content';
import { ExperimentBlocks } from '../lib/feature-flags/experiment-blocks';
import { ContentBlocks } from './content-blocks';
import { CallToActionList } from './call-to-action';
import { RichText } from './rich-text';

/** The variant of each experiment of a slot that the feature-flag SDK assigns (lib/feature-flags). */
function ExperimentSlot({
  experiments,
  slot,
}: {
  experiments: readonly Experiment[];
  slot: Experiment['slot'];
}) {
  return (
    <ExperimentBlocks
      experiments={experiments}
      slot={slot}
      renderBlocks={(blocks) => <ContentBlocks blocks={blocks} />}
    />
  );
}

/** A page's content below its heading: intro, experiment variants, blocks and calls to action. */
export function ContentPageBody({ page }: { page: PageContent }) {
  return (
    <>
      <RichText html={page.intro} className="page__intro" />
      <ExperimentSlot experiments={page.experiments} slot="beforeBlocks" />
      <ContentBlocks blocks={page.blocks} />
      <ExperimentSlot experiments={page.experiments} slot="afterBlocks" />
      <CallToActionList items={page.callsToAction} />
    </>
  );
}
