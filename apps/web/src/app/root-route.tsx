import { lazy, Suspense } from 'react';
import { useLoaderData } from 'react-router';
import { BlockLoadersContext } from '../content/block-loaders';
import type { RootData } from '../content/use-site-settings';
import { useSession } from '../session/session';
import { FallbackPage } from './errors/fallback-page';
import { blockLoaders } from './block-registry';
import { AppLayout } from './layout/app-layout';

// Only signed-in customers can go idle: visitors (the login page above all) don't download the idle timer.
const InactivityModal = lazy(() =>
  import('../features/auth/inactivity-modal').then((module) => ({ default: module.InactivityModal })),
);

/**
 * Settings failed: the full-page fallback (spec section 7). Otherwise the layout around every page, with
 * the features' content blocks handed to content's block renderer.
 */
export function RootRoute() {
  const { settings, navigation } = useLoaderData() as RootData;
  const { isAuthenticated } = useSession();
  if (!settings) return <FallbackPage />;
  return (
    <BlockLoadersContext value={blockLoaders}>
      <AppLayout settings={settings} navigation={navigation} />
      {isAuthenticated && settings.idleTimeoutMinutes > 0 ? (
        <Suspense fallback={null}>
          <InactivityModal />
        </Suspense>
      ) : null}
    </BlockLoadersContext>
  );
}
