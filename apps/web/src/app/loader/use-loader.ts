import { useSyncExternalStore } from 'react';
import { loaderStore, type LoaderState, type LoaderStore } from './loader-store';

export type UseLoader = LoaderState & Pick<LoaderStore, 'add' | 'remove' | 'disable'>;

/** The global loader: its state, and add/remove/disable for work that should show it. */
export function useLoader(store: LoaderStore = loaderStore): UseLoader {
  const state = useSyncExternalStore(store.subscribe, store.getState, store.getState);
  return { ...state, add: store.add, remove: store.remove, disable: store.disable };
}

/** Shows the loader while a promise is pending. */
export async function withLoader<T>(work: Promise<T>, store: LoaderStore = loaderStore): Promise<T> {
  const added = store.add();
  try {
    return await work;
  } finally {
    if (added) store.remove();
  }
}
