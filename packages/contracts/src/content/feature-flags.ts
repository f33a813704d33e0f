import { z } from 'zod/mini';

// ---------------------------------------------------------------------------------------------------
// Feature flags (GrowthBook-compatible definitions)
// ---------------------------------------------------------------------------------------------------

export const flagValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);
export const featureRule = z.looseObject({
  id: z.optional(z.string()),
  key: z.optional(z.string()),
  condition: z.optional(z.record(z.string(), z.unknown())),
  force: z.optional(flagValue),
  variations: z.optional(z.array(flagValue)),
  weights: z.optional(z.array(z.number().check(z.minimum(0), z.maximum(1)))),
  coverage: z.optional(z.number().check(z.minimum(0), z.maximum(1))),
  hashAttribute: z.optional(z.string()),
  meta: z.optional(z.array(z.looseObject({ key: z.optional(z.string()), name: z.optional(z.string()) }))),
});
export const featureDefinition = z.looseObject({
  defaultValue: flagValue,
  rules: z.optional(z.array(featureRule)),
});
export const featureDefinitions = z.looseObject({
  features: z.record(z.string(), featureDefinition),
  dateUpdated: z.optional(z.string()),
});
export type FeatureDefinitions = z.infer<typeof featureDefinitions>;
