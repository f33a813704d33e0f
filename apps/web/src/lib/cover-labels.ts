/**
 * Spec §9: the products PHL, PAH, PHR, NGH, NGB and MPC get their own cover labels; other products show the
 * line of business as the policy system names it. The Home line is listed first.
 */
const productCoverLabels: Record<string, Record<string, string>> = {
  PHL: { Home: 'Home cover: buildings and contents', Valuables: 'Valuables away from home' },
  PAH: { Valuables: 'Personal possessions', Home: 'Home cover' },
  PHR: { Home: 'Home cover: buildings and contents (renewal terms)' },
  NGH: { Home: 'Home cover: buildings and contents' },
  NGB: { FineArt: 'Fine art and collectables' },
  MPC: { Motor: 'Private car cover' },
};

const lineNames: Record<string, string> = {
  Home: 'Home',
  Valuables: 'Valuables',
  FineArt: 'Fine art and collectables',
  Motor: 'Motor',
  LegalExpenses: 'Legal expenses',
  Travel: 'Travel',
  PersonalAccident: 'Personal accident',
};

export function coverLabel(productType: string, lineType: string): string {
  return productCoverLabels[productType]?.[lineType] ?? lineNames[lineType] ?? lineType;
}

/** The lines with the Home line first, the rest in the order the policy system gave. */
export function homeFirst<T extends { type: string }>(lines: readonly T[]): T[] {
  return [...lines].sort((a, b) => Number(b.type === 'Home') - Number(a.type === 'Home'));
}

/** Art types the portal has labels for; anything else is the content's unknown art type label. */
const knownArtTypes = new Set([
  'Paintings',
  'Sculpture',
  'Ceramics',
  'Prints',
  'Drawings',
  'Photographs',
  'Furniture',
  'Silver',
  'Clocks',
  'Books',
  'Textiles',
  'Glass',
]);

export function artTypeLabel(artType: string | null, unknownLabel: string): string | null {
  if (artType === null) return null;
  return knownArtTypes.has(artType) ? artType : unknownLabel;
}
