import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { Spinner } from '../../components/ui/spinner';
import { useSiteSettings } from '../../content/use-site-settings';
import { followDestination, handleLoginCallback, type CallbackResult } from '../../session/login-callback';
import { useDocumentTitle } from '../../lib/use-document-title';

/** One exchange per callback address: the code is single-use, and StrictMode runs effects twice. */
const exchanges = new Map<string, Promise<CallbackResult>>();

function exchangeOnce(accountRootPage: string): Promise<CallbackResult> {
  const url = window.location.href;
  let exchange = exchanges.get(url);
  if (!exchange) {
    exchange = handleLoginCallback(accountRootPage, url).catch((): CallbackResult => ({
      ok: false,
      reason: 'refused',
    }));
    exchanges.set(url, exchange);
  }
  return exchange;
}

/**
 * /login/callback: where the identity provider returns with the authorization code. The code is redeemed
 * (PKCE), the login is recorded, and the customer goes on to RelayState, the redirect_url or the
 * marketing step. If the provider refused (an old link, a sign-in started in another tab), the page says
 * so and offers the sign-in page.
 */
export default function LoginCallbackPage() {
  const settings = useSiteSettings();
  const [failure, setFailure] = useState<'network' | 'refused' | null>(null);
  useDocumentTitle(failure ? 'We could not sign you in' : 'Signing you in');

  useEffect(() => {
    let current = true;
    void exchangeOnce(settings.accountRootPage).then((result) => {
      if (!current) return;
      if (result.ok) followDestination(result.destination);
      else setFailure(result.reason);
    });
    return () => {
      current = false;
    };
  }, [settings.accountRootPage]);

  if (!failure) {
    return (
      <article className="page">
        <h1>Signing you in</h1>
        <div role="status">
          <Spinner size="large" />
          <p>{settings.loaderText}</p>
        </div>
      </article>
    );
  }
  return (
    <article className="page">
      <h1>We could not sign you in</h1>
      <p>
        {failure === 'network'
          ? 'We could not reach our sign-in service. Check your internet connection and try again.'
          : 'Your sign-in could not be completed. This can happen if it took a long time or was started in another window. Please sign in again.'}
      </p>
      <p>
        <Link className="button" to={settings.loginPage} replace>
          Sign in again
        </Link>
      </p>
    </article>
  );
}
