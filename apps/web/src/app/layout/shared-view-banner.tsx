import { useState } from 'react';
import { isSharedView, sharedViewNames } from '../../session/shared-view';
import { signOut } from '../../session/sign-out';
import { useCurrentUser } from '../../session/tokens';

/**
 * The banner on every page of the contact centre's read-only view of a customer's account (issue 41
 * point 6): whose account it is and that nothing can be changed, with a way to close the view (its
 * sign-in ends at the server). Only a staff member in such a tab ever sees it, so its words are here.
 */
export function SharedViewBanner() {
  const user = useCurrentUser();
  const [closing, setClosing] = useState(false);
  if (!user || !isSharedView(user.onBehalfOf)) return null;
  const names = sharedViewNames();
  return (
    <section className="shared-view-banner" aria-label="Read-only view">
      <p>Viewing as {names?.customerName ?? 'the customer'}, read only</p>
      <button
        type="button"
        disabled={closing}
        onClick={() => {
          setClosing(true);
          void signOut({ reason: 'user' });
        }}
      >
        Close this view
      </button>
    </section>
  );
}
