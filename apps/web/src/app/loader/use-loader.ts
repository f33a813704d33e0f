import { useSyncExternalStore } from 'react';
import { loaderStore, type LoaderState, type LoaderStore } from './loader-store';

export type UseLoader = LoaderState & Pick<LoaderStore, 'add' | 'remove' | 'disable'>;

/** The global loader: its state, and add/remove/disable for work that should show it. */
export function useLoader(store: LoaderStore = loaderStore): UseLoader {
  const state = useSyncExternalStore(store.subscribe, store.getState, store.getState);
  return { ...state, add: store.add, remove: store.remove, disable: store.disable };
}
