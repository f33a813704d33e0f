import type { Navigation } from '@portal/contracts/content';
import { callApi } from '../../lib/api-client';
import { cachedContent, primeContent } from './content-cache';

const key = 'navigation';

/** The header and footer navigation; a failure rejects and the route loader decides. */
export const loadNavigation = (): Promise<Navigation> =>
  cachedContent(key, async () => {
    const { getNavigationCall } = await import('./content-calls');
    return callApi(getNavigationCall);
  });

export const primeNavigation = (navigation: Navigation) => primeContent(key, navigation);
