/**
 * The services modules expose to each other. Modules do not read each other's tables; they call these.
 * Each module adds its own entry by declaration merging in its index.ts:
 *
 *   declare module '../../platform/services' { interface Services { content: ContentService } }
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface Services {}
