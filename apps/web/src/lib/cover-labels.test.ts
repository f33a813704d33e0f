import { describe, expect, it } from 'vitest';
import { artTypeLabel, coverLabel, homeFirst } from './cover-labels';

describe('cover labels', () => {
  it('gives the six named products their own labels, others the line name', () => {
    expect(coverLabel('PHL', 'Home')).toBe('Home cover: buildings and contents');
    expect(coverLabel('MPC', 'Motor')).toBe('Private car cover');
    expect(coverLabel('NGB', 'FineArt')).toBe('Fine art and collectables');
    expect(coverLabel('PAH', 'Valuables')).toBe('Personal possessions');
    expect(coverLabel('PHR', 'Home')).toBe('Home cover: buildings and contents (renewal terms)');
    expect(coverLabel('NGH', 'Home')).toBe('Home cover: buildings and contents');
    expect(coverLabel('LEX', 'LegalExpenses')).toBe('Legal expenses');
    expect(coverLabel('XYZ', 'Boats')).toBe('Boats');
  });

  it('lists the Home line first', () => {
    expect(
      homeFirst([{ type: 'Valuables' }, { type: 'Home' }, { type: 'Motor' }]).map((l) => l.type),
    ).toEqual(['Home', 'Valuables', 'Motor']);
  });

  it('labels an unknown art type with the content text', () => {
    expect(artTypeLabel('Paintings', 'Unspecified Other Fine Art')).toBe('Paintings');
    expect(artTypeLabel('NTSK', 'Unspecified Other Fine Art')).toBe('Unspecified Other Fine Art');
    expect(artTypeLabel(null, 'Unspecified Other Fine Art')).toBeNull();
  });
});
