import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { MAIN_CONTENT_ID } from './skip-links';

function focusWithoutScroll(element: HTMLElement) {
  if (!element.hasAttribute('tabindex')) element.setAttribute('tabindex', '-1');
  element.focus({ preventScroll: true });
}

/**
 * On every route change (not the first load): scroll to the top (or to the #fragment), move focus to the
 * page's main heading (or <main>) so keyboard and screen-reader users start at the new page, and
 * announce the new page title in a polite live region.
 */
export function RouteAnnouncer() {
  const location = useLocation();
  const region = useRef<HTMLDivElement>(null);
  const previous = useRef<string | null>(null);

  useEffect(() => {
    const key = location.pathname + location.search;
    if (previous.current === null || previous.current === key) {
      previous.current = key;
      return;
    }
    previous.current = key;
    const fragment = location.hash
      ? document.getElementById(decodeURIComponent(location.hash.slice(1)))
      : null;
    if (fragment) {
      fragment.scrollIntoView?.();
      focusWithoutScroll(fragment);
    } else {
      window.scrollTo({ top: 0, left: 0 });
      const main = document.getElementById(MAIN_CONTENT_ID);
      const heading = main?.querySelector<HTMLElement>('h1');
      const target = heading ?? main;
      if (target) focusWithoutScroll(target);
    }
    if (region.current) region.current.textContent = document.title;
  }, [location.pathname, location.search, location.hash]);

  return (
    <div
      ref={region}
      className="visually-hidden"
      aria-live="polite"
      aria-atomic="true"
      data-testid="route-announcer"
    />
  );
}
