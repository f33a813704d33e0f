import createDOMPurify from 'dompurify';
import { richTextAttributes, richTextTags } from '@portal/contracts/content';
import type { MouseEvent } from 'react';
import { useMemo } from 'react';
import { navigateTo } from '../lib/app-navigation';

const safeHref = /^(\/(?!\/)|#|https:\/\/|tel:|mailto:)/i;
const NEW_TAB_TEXT = ' (opens in a new tab)';

// Our own instance, so the link rules below never leak into another module's use of DOMPurify.
let purifier: ReturnType<typeof createDOMPurify> | undefined;

function getPurifier() {
  if (purifier) return purifier;
  purifier = createDOMPurify(window);
  purifier.addHook('afterSanitizeAttributes', (node) => {
    if (node.nodeName !== 'A') return;
    const href = node.getAttribute('href');
    if (href !== null && !safeHref.test(href.trim())) node.removeAttribute('href');
    if (node.getAttribute('target') === '_blank') {
      node.setAttribute('rel', 'noopener noreferrer');
      if (!node.textContent?.includes('opens in a new tab')) {
        const note = node.ownerDocument.createElement('span');
        note.className = 'visually-hidden';
        note.textContent = NEW_TAB_TEXT;
        node.appendChild(note);
      }
    } else {
      node.removeAttribute('target');
    }
  });
  return purifier;
}

/** Content HTML limited to the contract's tags and attributes, with only safe link targets. */
export function sanitizeRichText(html: string): string {
  return getPurifier().sanitize(html, {
    ALLOWED_TAGS: [...richTextTags],
    ALLOWED_ATTR: [...richTextAttributes],
    ALLOW_DATA_ATTR: false,
  });
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
