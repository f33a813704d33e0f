/** Spec section 9: 10 renewals in under 30 s is an error (a renewal loop, e.g. a clock far off). */
const RENEWAL_STORM_LIMIT = 10;
const RENEWAL_STORM_WINDOW_MS = 30_000;
/** Spec section 9: a tab inactive this long renews its tokens as soon as it is shown again. */
const INACTIVE_TAB_RENEW_SECONDS = 1800;

export class TokenRenewalStormError extends Error {
  override name = 'TokenRenewalStormError';
  constructor() {
    super(
      `Too many token renewals: ${RENEWAL_STORM_LIMIT} in under ${RENEWAL_STORM_WINDOW_MS / 1000} seconds`,
    );
  }
}

/**
 * Counts token renewals and refuses the one that makes `limit` within `windowMs`. A renewal that keeps
 * returning tokens that look expired (a device clock hours out, a provider issuing very short tokens)
 * would otherwise hammer the identity provider for as long as the page stays open.
 */
export class RenewalStormGuard {
  private readonly times: number[] = [];

  constructor(
    private readonly now: () => number = Date.now,
    private readonly limit = RENEWAL_STORM_LIMIT,
    private readonly windowMs = RENEWAL_STORM_WINDOW_MS,
  ) {}

  /** Records a renewal about to happen; throws TokenRenewalStormError when it would be one too many. */
  record(): void {
    const at = this.now();
    this.times.push(at);
    if (this.times.length < this.limit) return;
    const first = this.times.shift()!;
    if (at - first < this.windowMs) {
      this.times.length = 0;
      throw new TokenRenewalStormError();
    }
  }

  reset(): void {
    this.times.length = 0;
  }
}

/**
 * Whether a tab shown again after being hidden should renew at once: background tabs have their timers
 * throttled, so the scheduled renewal may never have run.
 */
export function shouldRenewOnTabActivation(hiddenAtMs: number | null, nowMs: number): boolean {
  return hiddenAtMs !== null && nowMs - hiddenAtMs >= INACTIVE_TAB_RENEW_SECONDS * 1000;
}
