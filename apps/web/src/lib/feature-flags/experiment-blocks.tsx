import type { ContentBlock, Experiment } from '@portal/contracts/content';
import type { ReactNode } from 'react';
import {
  getFeatureValue,
  hasInitialFeatureValue,
  useFeatureFlagsStatus,
  type FlagsStatus,
} from './feature-flags';

type Variant = Experiment['variants'][number];

/**
 * The variant of a content experiment to show. The experiment's key is a feature flag whose value is a
 * variant id (content/README.md): with the flags loaded, the flag's value picks the variant. While they
 * load, nothing is shown (so the text does not change under the reader); when they cannot load, or the
 * flag is not defined or names no variant, the experiment is not running and the first variant (the
 * control) shows. A server-rendered page shows the variant the server chose for this visitor's id from
 * the first paint (decision 016); the SDK, started after, picks the same one.
 */
function chosenVariant(experiment: Experiment, status: FlagsStatus): Variant | null {
  if (status === 'loading' && !hasInitialFeatureValue(experiment.key)) return null;
  const value = getFeatureValue<string | null>(experiment.key, null);
  return experiment.variants.find((v) => v.id === value) ?? experiment.variants[0] ?? null;
}

export interface ExperimentBlocksProps {
  experiments: readonly Experiment[];
  slot: Experiment['slot'];
  /** Renders a variant's blocks (the shell's block renderer). */
  renderBlocks: (blocks: readonly ContentBlock[]) => ReactNode;
}

/** The assigned variant of each experiment of a page slot. */
export function ExperimentBlocks({ experiments, slot, renderBlocks }: ExperimentBlocksProps) {
  const status = useFeatureFlagsStatus();
  return (
    <>
      {experiments
        .filter((experiment) => experiment.slot === slot)
        .map((experiment) => {
          const variant = chosenVariant(experiment, status);
          return variant ? (
            <div key={experiment.key} data-experiment={experiment.key} data-variant={variant.id}>
              {renderBlocks(variant.blocks)}
            </div>
          ) : null;
        })}
    </>
  );
}
