import { useEffect, useState } from 'react';
import { Spinner } from '../../components/ui/spinner';
import { useSiteSettings } from '../../content/use-site-settings';
import { navigateTo } from '../../lib/app-navigation';
import { useDocumentTitle } from '../../lib/use-document-title';

/** One exchange per ticket: it is single-use, and StrictMode runs effects twice. */
const exchanges = new Map<string, Promise<boolean>>();

function exchangeOnce(ticket: string): Promise<boolean> {
  let exchange = exchanges.get(ticket);
  if (!exchange) {
    exchange = import('../../session/shared-view-calls')
      .then((calls) => calls.openSharedView(ticket))
      .then(
        () => true,
        () => false,
      );
    exchanges.set(ticket, exchange);
  }
  return exchange;
}

/** The ticket in this address's fragment (never sent to a server), taken off the address at once. */
function takeTicket(): string | null {
  const ticket = /^#ticket=([A-Za-z0-9_-]{32,64})$/.exec(window.location.hash)?.[1] ?? null;
  if (window.location.hash) window.history.replaceState(window.history.state, '', window.location.pathname);
  return ticket;
}

let taken: string | null | undefined;

/**
 * /account/shared-view: where the contact centre's link opens (issue 41 point 6, decision 039). The
 * one-time ticket in the fragment is exchanged for the view's read-only token, and the customer's
 * dashboard opens with the read-only banner. A used or expired link says so: the customer makes a new
 * code, and the agent asks again.
 */
export default function SharedViewPage() {
  const settings = useSiteSettings();
  const [ticket] = useState(() => (taken ??= takeTicket()));
  const [failed, setFailed] = useState(ticket === null);
  useDocumentTitle(failed ? 'This link does not work' : 'Opening the customer’s account');

  useEffect(() => {
    if (!ticket) return;
    let current = true;
    void exchangeOnce(ticket).then((ok) => {
      if (!current) return;
      if (ok) navigateTo(settings.accountRootPage, { replace: true });
      else setFailed(true);
    });
    return () => {
      current = false;
    };
  }, [ticket, settings.accountRootPage]);
  if (!failed) {
    return (
      <article className="page">
        <h1>Opening the customer’s account</h1>
        <div role="status">
          <Spinner size="large" />
          <p>{settings.loaderText}</p>
        </div>
      </article>
    );
  }
  return (
    <article className="page">
      <h1>This link does not work</h1>
      <p>
        The link has expired or has already been used. Ask the customer to get a new code on their Sign-in and
        security page, then enter it in the staff console again.
      </p>
    </article>
  );
}
