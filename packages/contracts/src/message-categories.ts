/*
 * The categories of a message from the insurer (message.ts), apart from its calls and schemas: the
 * content contract's messages page is keyed by them, and the content calls, which every page the SPA
 * renders itself loads at start, need them without the message calls' schemas (as account-activity-kinds).
 */

/** What a message is about: "Your messages" labels it, and its notice email has its own wording. */
export const messageCategories = ['renewal', 'payment', 'claim', 'general'] as const;
export type MessageCategory = (typeof messageCategories)[number];
