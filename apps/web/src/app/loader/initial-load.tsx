import { useEffect } from 'react';
import { FullPageLoader } from './full-page-loader';
import { loaderStore } from './loader-store';

/** Shown while the first page's data loads (the router's hydrate fallback). */
export function InitialLoad() {
  useEffect(() => {
    const added = loaderStore.add();
    return () => {
      if (added) loaderStore.remove();
    };
  }, []);
  return <FullPageLoader />;
}
