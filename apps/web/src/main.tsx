import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, clearCustomerDataOnSignOut } from './app/app';
import { FallbackPage } from './app/errors/fallback-page';
import { FullPageLoader } from './app/loader/full-page-loader';
import { loaderStore } from './app/loader/loader-store';
import { queryClient } from './app/query-client';
import { createAppRouter, routerNavigator } from './app/router';
import { registerNavigator } from './lib/app-navigation';
import { trackPageViews } from './lib/analytics/page-views';
import { initAuth } from './session/init';
import { loadPageInit } from './lib/page-init';
import './styles/app.css';

async function start() {
  const container = document.getElementById('root');
  if (!container) throw new Error('The page has no #root element');
  const root = createRoot(container);
  // Start-up waits on the network (settings, sign-in, flags): show the loader at once, not a blank page.
  loaderStore.add();
  root.render(<FullPageLoader />);
  try {
    await loadPageInit();
  } catch (error) {
    // Without base URLs no call can be made: the same fallback as failed site settings.
    console.error(error instanceof Error ? error.message : 'Page settings failed to load');
    loaderStore.remove();
    root.render(<FallbackPage />);
    return;
  }
  // Before the first guard runs: a stored sign-in is loaded (and renewed) or cleared. The feature flags
  // load with the first page that runs an experiment (route-loaders.ts), not here.
  await initAuth();
  const router = createAppRouter(queryClient);
  registerNavigator(routerNavigator(router));
  trackPageViews(router);
  clearCustomerDataOnSignOut(queryClient);
  root.render(
    <StrictMode>
      <App router={router} queryClient={queryClient} />
    </StrictMode>,
  );
  // The router's own loader (first page data) has taken over by now; this one closes.
  loaderStore.remove();
}

void start();
