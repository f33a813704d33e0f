import { queryOptions } from '@tanstack/react-query';
import { getNavigationCall } from '@portal/contracts/content';
import { callApi } from '../../lib/api-client';
import { CONTENT_STALE_TIME } from './content-cache';

/** The header and footer navigation; a failure rejects and the route loader decides. */
export const navigationQuery = () =>
  queryOptions({
    queryKey: ['content', 'navigation'],
    queryFn: ({ signal }) => callApi(getNavigationCall, { signal }),
    staleTime: CONTENT_STALE_TIME,
  });
