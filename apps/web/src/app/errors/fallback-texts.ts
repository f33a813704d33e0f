/** Spec section 8: the full-page fallback's texts, used when site settings (and so content) failed. */
export const FALLBACK_HEADING = 'Something went wrong';
export const FALLBACK_BODY = "Sorry, there's been an unexpected technical problem. We're working to fix it.";
export const FALLBACK_REFRESH_ADVICE = "Please use your browser's refresh button and try again later.";
export const FALLBACK_URGENT_HELP = 'If you need help urgently, call us free on';

/** Spec section 2: the heading shown for an unexpected router failure. */
export const UNEXPECTED_ERROR_HEADING = 'Unexpected Application Error!';
