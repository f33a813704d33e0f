import { useDeferredValue, useEffect, useState } from 'react';
import { useBlocksReady } from '../../content/content-blocks';
import { ContentPageBody } from '../../content/content-page-body';
import type { PageProps } from '../../content/page-props';
import { RichText } from '../../content/rich-text';
import { useCurrentUser } from '../../session/tokens';
import { greetingFor } from './greeting';
import { NotificationModal } from './notification-modal';
import { useCustomerData } from '../../content/use-customer-data';

/**
 * The dashboard (spec customer-data §2): the greeting, then the content's blocks (renewals, policies,
 * quotes, agency, cross-sell, help), each reading the session's user data, and the welcome or splash modal.
 */
export default function DashboardPage({ page }: PageProps<'DashboardPage'>) {
  const user = useCurrentUser();
  const { data, isLoading } = useCustomerData();
  // The blocks' code downloads beside the data (route loader); both are waited for, so that the blocks
  // replace the loading line in one step.
  const blocksReady = useBlocksReady(page.blocks);
  const [now, setNow] = useState(() => new Date());
  // The greeting follows the clock if the page stays open past noon or six.
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), 60_000);
    return () => clearInterval(timer);
  }, []);
  // The blocks come in a render of their own after the page around them (decision 017): when the data and
  // code are already here (a reload), the header, the heading and the loading line are committed and laid
  // out first, then the blocks, in a render React can interrupt, rather than the whole page in one long task
  // on a slow phone. They still replace the loading line in one step.
  const ready = !isLoading && blocksReady;
  const showBlocks = useDeferredValue(ready, false) && ready;
  const partial = data && (data.policiesFailed || data.quotes === null || data.profile === null);
  return (
    <article className="page dashboard">
      <h1>
        <span className="dashboard__greeting">{greetingFor(now, data?.profile ?? null)}</span>
        <span className="visually-hidden">: </span>
        <span className="dashboard__heading">{page.heading}</span>
      </h1>
      {!showBlocks ? (
        // Holds the place of the blocks to come: the footer starts below the screen, so it does not
        // move when they render (layout shift).
        <p className="block-loading dashboard__loading" role="status">
          Thank you for being patient. We're just loading your details.
        </p>
      ) : (
        <>
          {partial && page.messages['apiError'] && (
            <RichText html={page.messages['apiError']} className="inset-text" />
          )}
          <ContentPageBody page={page} />
        </>
      )}
      {user && <NotificationModal customerId={user.customerId} />}
    </article>
  );
}
