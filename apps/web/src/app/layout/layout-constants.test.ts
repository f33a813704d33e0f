import { describe, expect, it } from 'vitest';
import { headerSpacerHeight } from './layout-constants';

describe('header spacer (spec section 9)', () => {
  it('is 104 px, plus 82 signed in on desktop, plus 30 with breadcrumbs', () => {
    expect(headerSpacerHeight({ isAuthenticated: false, isDesktop: false, hasBreadcrumbs: false })).toBe(104);
    expect(headerSpacerHeight({ isAuthenticated: false, isDesktop: true, hasBreadcrumbs: false })).toBe(104);
    expect(headerSpacerHeight({ isAuthenticated: true, isDesktop: false, hasBreadcrumbs: false })).toBe(104);
    expect(headerSpacerHeight({ isAuthenticated: true, isDesktop: true, hasBreadcrumbs: false })).toBe(186);
    expect(headerSpacerHeight({ isAuthenticated: false, isDesktop: false, hasBreadcrumbs: true })).toBe(134);
    expect(headerSpacerHeight({ isAuthenticated: true, isDesktop: true, hasBreadcrumbs: true })).toBe(216);
  });
});
