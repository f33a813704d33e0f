import { describe, expect, it } from 'vitest';
import { RenewalStormGuard, shouldRenewOnTabActivation, TokenRenewalStormError } from './renewal-guard';

describe('token renewal storm guard', () => {
  it('refuses the 10th renewal in under 30 seconds', () => {
    let now = 0;
    const guard = new RenewalStormGuard(() => now);
    for (let i = 0; i < 9; i += 1) {
      guard.record();
      now += 3000;
    }
    // 9 renewals over 27 s; the 10th at 27 s is within 30 s of the first.
    expect(() => guard.record()).toThrow(TokenRenewalStormError);
  });

  it('allows renewals that are spread out', () => {
    let now = 0;
    const guard = new RenewalStormGuard(() => now);
    for (let i = 0; i < 50; i += 1) {
      expect(() => guard.record()).not.toThrow();
      now += 3400;
    }
  });

  it('starts counting afresh after a storm was reported', () => {
    let now = 0;
    const guard = new RenewalStormGuard(() => now);
    for (let i = 0; i < 9; i += 1) guard.record();
    expect(() => guard.record()).toThrow(TokenRenewalStormError);
    now += 1;
    expect(() => guard.record()).not.toThrow();
  });

  it('renews on tab activation only after 1800 s hidden', () => {
    expect(shouldRenewOnTabActivation(null, 5_000_000)).toBe(false);
    expect(shouldRenewOnTabActivation(0, 1_799_999)).toBe(false);
    expect(shouldRenewOnTabActivation(0, 1_800_000)).toBe(true);
  });
});
