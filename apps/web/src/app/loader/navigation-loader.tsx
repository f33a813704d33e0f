import { useEffect } from 'react';
import { useNavigation } from 'react-router';
import { loaderStore } from './loader-store';

/**
 * Opens a loader while the router loads the next page. Pages that come from cache arrive within a few
 * milliseconds; waiting this long first keeps the overlay (and its 1 s hide delay) for real waits.
 */
const NAVIGATION_LOADER_DELAY_MS = 250;

export function NavigationLoader() {
  const busy = useNavigation().state !== 'idle';
  useEffect(() => {
    if (!busy) return;
    let added = false;
    const timer = setTimeout(() => {
      added = loaderStore.add();
    }, NAVIGATION_LOADER_DELAY_MS);
    return () => {
      clearTimeout(timer);
      if (added) loaderStore.remove();
    };
  }, [busy]);
  return null;
}
