import { richTextProblem } from '@portal/contracts/content/rich-text-rules';
import type { MouseEvent } from 'react';
import { useMemo } from 'react';
import { navigateTo } from '../lib/app-navigation';

const NEW_TAB_TEXT = ' (opens in a new tab)';
const linkPattern = /<a\b([^>]*)>([\s\S]*?)<\/a>/gi;
const targetAttribute = /\s+target\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/i;
const relAttribute = /\s+rel\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'>]+)/gi;

/** A link that opens a new tab gets rel=noopener and says so to screen readers; other targets go. */
function decorateLink(_all: string, attributes: string, text: string): string {
  const target = targetAttribute.exec(attributes);
  const rest = attributes.replace(targetAttribute, '').replace(relAttribute, '');
  if ((target?.[1] ?? target?.[2] ?? target?.[3]) !== '_blank') return `<a${rest}>${text}</a>`;
  const note = text.includes('opens in a new tab')
    ? ''
    : `<span class="visually-hidden">${NEW_TAB_TEXT}</span>`;
  return `<a${rest} target="_blank" rel="noopener noreferrer">${text}${note}</a>`;
}

/**
 * Content HTML as it is shown (decision 016). It must pass the contract's rich-text rule, the one the
 * content service stores it by and the SPA parses every content answer with (only the listed tags and
 * attributes, links only to safe targets); anything else is not shown at all rather than cleaned. Links
 * that open a new tab get rel=noopener and a note for screen readers. The same on the server and in the
 * browser, so a server-rendered page hydrates unchanged, and without an HTML sanitiser on the page.
 */
export function sanitizeRichText(html: string): string {
  if (richTextProblem(html)) return '';
  return html.replace(linkPattern, decorateLink);
}

/** Site links inside content move the router instead of reloading the whole portal. */
function followInternalLink(event: MouseEvent<HTMLElement>) {
  if (
    event.defaultPrevented ||
    event.button !== 0 ||
    event.metaKey ||
    event.ctrlKey ||
    event.shiftKey ||
    event.altKey
  )
    return;
  const anchor = (event.target as Element).closest('a');
  const href = anchor?.getAttribute('href');
  if (!anchor || !href || !href.startsWith('/') || href.startsWith('//') || anchor.target === '_blank')
    return;
  event.preventDefault();
  navigateTo(href);
}

export interface RichTextProps {
  html: string | undefined;
  className?: string;
}

/** Renders a rich-text field of content, sanitised. */
export function RichText({ html, className }: RichTextProps) {
  const clean = useMemo(() => (html ? sanitizeRichText(html) : ''), [html]);
  if (!clean) return null;
  return (
    // Clicks bubble up from the links inside (keyboard activation of a link is a click too); the
    // container itself is not interactive.
    // eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-static-element-interactions
    <div
      className={className ? `rich-text ${className}` : 'rich-text'}
      onClick={followInternalLink}
      dangerouslySetInnerHTML={{ __html: clean }}
    />
  );
}
