import { LOADER_TEXT, loaderStore, type LoaderStore } from './loader-store';
import { useLoader } from './use-loader';

/**
 * The full-page loader. The status region is always in the page so screen readers pick up the text the
 * moment it appears; the overlay covers the page only while the loader is visible.
 */
export function FullPageLoader({
  store = loaderStore,
  text = LOADER_TEXT,
}: {
  store?: LoaderStore;
  text?: string;
}) {
  const { visible } = useLoader(store);
  return (
    <div className={visible ? 'page-loader page-loader--visible' : 'page-loader'}>
      <div role="status" className="page-loader__panel">
        {visible ? (
          <>
            <span className="spinner" aria-hidden="true" />
            <p className="page-loader__text">{text}</p>
          </>
        ) : null}
      </div>
    </div>
  );
}
