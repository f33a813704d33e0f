import type { PageContent } from '@portal/contracts/content';
import { fillPlaceholders } from './forms/fill-placeholders';

/**
 * A page's message lookup over a feature's fallback texts: content first (page.messages), then the
 * fallback, with {placeholders} filled. Each feature keeps its own fallbacks, for the messages its pages use.
 */
export function createPageMessages<K extends string>(fallbacks: Readonly<Record<K, string>>) {
  return function pageMessage(
    page: Pick<PageContent, 'messages'>,
    key: K,
    values: Readonly<Record<string, string | number>> = {},
  ): string {
    return fillPlaceholders(page.messages[key] ?? fallbacks[key], values);
  };
}

/** Plain text of a short content message (for headings, button labels and live text, which take no markup). */
export function plainText(html: string): string {
  return html
    .replace(/<[^>]*>/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}
