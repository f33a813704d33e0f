export interface Leaflet {
  file: string;
  title: string;
  sections: Array<[heading: string, body: string]>;
  footer: string;
}

export const mediaDir: string;
export function sitePhone(): string;
export function leaflets(phone?: string): Leaflet[];
