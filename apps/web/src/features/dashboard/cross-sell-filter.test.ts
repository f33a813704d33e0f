import { describe, expect, it } from 'vitest';
import { crossSellApplies } from './cross-sell-filter';

describe('crossSellApplies', () => {
  it('ALL, ANY and NONE, in any case and with spaces', () => {
    expect(crossSellApplies('PHL, MPC', 'ALL', ['PHL', 'MPC', 'PAH'])).toBe(true);
    expect(crossSellApplies('PHL,MPC', 'all', ['PHL'])).toBe(false);
    expect(crossSellApplies('pah,NGB', 'Any', ['NGB'])).toBe(true);
    expect(crossSellApplies('PAH,NGB', 'ANY', ['PHL'])).toBe(false);
    expect(crossSellApplies('PAH,NGB', 'NONE', ['PHL', 'MPC'])).toBe(true);
    expect(crossSellApplies('PAH,NGB', 'none', ['phl', 'ngb'])).toBe(false);
  });

  it('filters nothing when the list is empty', () => {
    expect(crossSellApplies('', 'NONE', ['PHL'])).toBe(true);
    expect(crossSellApplies(' , ', 'ALL', [])).toBe(true);
  });
});
