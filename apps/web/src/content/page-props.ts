import type { PageContent, PageOf, PageType } from '@portal/contracts/content';

/** What a page component of one type receives: its content, already parsed with the contract. */
export interface PageProps<T extends PageType> {
  page: PageOf<T>;
}

/** For components that render any page type (standard template, error pages). */
export interface AnyPageProps {
  page: PageContent;
}
