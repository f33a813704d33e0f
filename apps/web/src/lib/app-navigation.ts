/**
 * Lets code outside React components (the API client, session sign-out) move the router. The router
 * registers itself at start; before that, or without a router (tests), the browser location is used.
 */
export interface AppNavigator {
  navigate(to: string, options?: { replace?: boolean }): void;
  /** Path and query of the page being shown or loaded (a route loader runs before the URL changes). */
  currentPath(): string;
}

const browserNavigator: AppNavigator = {
  navigate(to, options) {
    if (options?.replace) window.location.replace(to);
    else window.location.assign(to);
  },
  currentPath() {
    return window.location.pathname + window.location.search;
  },
};

let active: AppNavigator = browserNavigator;

/** Registers the router; returns a function that unregisters it. */
export function registerNavigator(navigator: AppNavigator): () => void {
  active = navigator;
  return () => {
    if (active === navigator) active = browserNavigator;
  };
}

export function navigateTo(to: string, options?: { replace?: boolean }): void {
  active.navigate(to, options);
}

export function currentPath(): string {
  return active.currentPath();
}
