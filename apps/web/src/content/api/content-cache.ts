/** How long a content answer stays fresh in the query cache. */
export const CONTENT_STALE_TIME = 5 * 60_000;
