import type { PageContent } from '@portal/contracts/content';
import { pageTypes, type PageType } from '@portal/contracts/content/page-types';
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { PageProps } from '../content/page-props';

/** Spec section 9: a page's script chunk that has not arrived in this long counts as failed. */
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;

export type PageComponent = ComponentType<{ page: PageContent }>;
type PageModule<T extends PageType> = { default: ComponentType<PageProps<T>> };
export type PageLoader<T extends PageType> = () => Promise<PageModule<T>>;

const standardPage = () => import('../content/pages/standard-page-template');

/**
 * THE map from the page type content names to the component that renders it, each loaded on first use
 * so a route downloads only its own page. The app composes it (the one place that imports every
 * feature's page); a feature's page is registered here (or with registerPageType).
 */
const pageLoaders: { [T in PageType]: PageLoader<T> } = {
  LoginPage: () => import('../features/auth/login-page'),
  RegistrationPage: () => import('../features/registration/registration-page'),
  ConfirmationPage: () => import('../features/registration/confirmation-page'),
  PasswordPage: () => import('../features/registration/password-page'),
  AuthenticationVerificationPage: () => import('../features/auth/authentication-verification-page'),
  AuthenticationChallengePage: () => import('../features/auth/authentication-challenge-page'),
  ResetPasswordPage: () => import('../features/registration/reset-password-page'),
  AccountPage: () => import('../features/preferences/account-page'),
  RegistrationMarketingPreferences: () =>
    import('../features/preferences/registration-marketing-preferences-page'),
  DashboardPage: () => import('../features/dashboard/dashboard-page'),
  PolicyPage: () => import('../features/policies/policy-page'),
  PolicyRedirectPage: () => import('../features/policies/policy-redirect-page'),
  MessagesPage: () => import('../features/messages/messages-page'),
  StandardPageTemplate: standardPage,
  FormSuccessPage: () => import('../content/pages/form-success-page'),
  RedirectPage: () => import('../content/pages/redirect-page'),
  // The error and maintenance pages are content pages like any other: heading, body, blocks.
  ErrorPage: standardPage,
  MaintenancePage: standardPage,
};

export class UnknownPageTypeError extends Error {
  override name = 'UnknownPageTypeError';
}

export class ChunkLoadTimeoutError extends Error {
  override name = 'ChunkLoadTimeoutError';
}

export function isKnownPageType(type: string): type is PageType {
  return (pageTypes as readonly string[]).includes(type) && type in pageLoaders;
}

const loaded = new Map<string, PageComponent>();
const pending = new Map<string, Promise<PageComponent>>();

/** Replaces the component of a page type (a feature registering its journey page). */
export function registerPageType<T extends PageType>(type: T, loader: PageLoader<T>): void {
  (pageLoaders as Record<PageType, unknown>)[type] = loader;
  loaded.delete(type);
  pending.delete(type);
}

function withTimeout<T>(work: Promise<T>, ms: number, type: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new ChunkLoadTimeoutError(`The ${type} page did not load within ${ms / 1000} seconds`)),
      ms,
    );
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/** Loads (once) the component of a page type. Rejects for a type the registry does not know. */
export function loadPageComponent(type: string): Promise<PageComponent> {
  const ready = loaded.get(type);
  if (ready) return Promise.resolve(ready);
  if (!isKnownPageType(type))
    return Promise.reject(new UnknownPageTypeError(`No page component for type ${type}`));
  const inFlight = pending.get(type);
  if (inFlight) return inFlight;
  const loader = pageLoaders[type] as unknown as () => Promise<{ default: PageComponent }>;
  const promise = withTimeout(loader(), CHUNK_LOAD_TIMEOUT_MS, type).then(
    (module) => {
      loaded.set(type, module.default);
      pending.delete(type);
      return module.default;
    },
    (error: unknown) => {
      // A later visit may succeed (flaky connection); don't remember the failure.
      pending.delete(type);
      throw error;
    },
  );
  pending.set(type, promise);
  return promise;
}

/** The component of a page type if it has been loaded already (route loaders load it before render). */
export function getLoadedPageComponent(type: string): PageComponent | undefined {
  return loaded.get(type);
}

const lazyComponents = new Map<string, LazyExoticComponent<PageComponent>>();

/** A React.lazy component for a page type, for rendering without a route loader. */
export function lazyPageComponent(type: PageType): LazyExoticComponent<PageComponent> {
  let component = lazyComponents.get(type);
  if (!component) {
    component = lazy(() => loadPageComponent(type).then((c) => ({ default: c })));
    lazyComponents.set(type, component);
  }
  return component;
}
