import { useDocumentTitle } from '../../lib/use-document-title';
import { texts } from './texts';

/** Names the tab "{page} – Staff console – Meridian Mutual" (the portal's one title pattern). */
export function useConsoleTitle(page: string): void {
  useDocumentTitle(`${page}${texts.titleSuffix}`);
}
