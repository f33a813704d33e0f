/** Spec section 9: the loader stays up this long after the last open loader closes. */
export const LOADER_HIDE_DELAY_MS = 1000;

/** Spec section 2: the full-page loader's text, exactly. */
export const LOADER_TEXT = "Thank you for being patient. We're just loading your details.";

export interface LoaderState {
  /** Loaders currently open. */
  count: number;
  /** Whether the full-page loader shows. */
  visible: boolean;
  /** While true, add() is ignored; the next remove() turns adding back on. */
  disabled: boolean;
}

export interface LoaderStore {
  /** Opens a loader and shows the overlay at once. Returns false when adding is disabled. */
  add(): boolean;
  /** Closes one loader and re-enables adding; the overlay hides 1 s after the count reaches zero. */
  remove(): void;
  /** Ignores add() until the next remove() (a step that must not flash the overlay). */
  disable(): void;
  getState(): LoaderState;
  subscribe(listener: () => void): () => void;
}

export interface LoaderStoreOptions {
  hideDelayMs?: number;
}

/** The global loader counter of spec section 4. */
export function createLoaderStore({
  hideDelayMs = LOADER_HIDE_DELAY_MS,
}: LoaderStoreOptions = {}): LoaderStore {
  let state: LoaderState = { count: 0, visible: false, disabled: false };
  let hideTimer: ReturnType<typeof setTimeout> | undefined;
  const listeners = new Set<() => void>();

  const set = (next: Partial<LoaderState>) => {
    const merged = { ...state, ...next };
    if (
      merged.count === state.count &&
      merged.visible === state.visible &&
      merged.disabled === state.disabled
    )
      return;
    state = merged;
    for (const listener of listeners) listener();
  };
  const cancelHide = () => {
    if (hideTimer !== undefined) clearTimeout(hideTimer);
    hideTimer = undefined;
  };

  return {
    add() {
      if (state.disabled) return false;
      cancelHide();
      set({ count: state.count + 1, visible: true });
      return true;
    },
    remove() {
      const count = Math.max(0, state.count - 1);
      set({ count, disabled: false });
      if (count === 0 && state.visible && hideTimer === undefined) {
        hideTimer = setTimeout(() => {
          hideTimer = undefined;
          if (state.count === 0) set({ visible: false });
        }, hideDelayMs);
      }
    },
    disable() {
      set({ disabled: true });
    },
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** The portal's one loader. */
export const loaderStore = createLoaderStore();
