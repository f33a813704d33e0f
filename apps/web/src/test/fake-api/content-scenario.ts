import {
  getContentByRelativeUrlCall,
  getFeatureDefinitionsCall,
  getNavigationCall,
  getSiteSettingsCall,
  normaliseContentPath,
  type PageContentInput,
  type SiteSettingsInput,
} from '@portal/contracts/content';
import type { z } from 'zod/mini';
import { pageInputs, settingsInput, testNavigation } from '../content-fixtures';
import { fakeApi, fakeCall } from './fake-api';

export interface ContentScenarioOptions {
  /** Changes to the test site settings; 'fail' answers them with a 500. */
  settings?: Partial<SiteSettingsInput> | 'fail';
  /** 'fail' answers the navigation with a 503. */
  navigation?: 'fail';
  /** Extra or replaced pages by path; 'fail' answers that path with a 500. */
  pages?: Record<string, PageContentInput | 'fail'>;
  /** The feature-flag definitions the flag SDK loads (404 when not given). */
  features?: z.input<(typeof getFeatureDefinitionsCall.responses)[200]>;
}

/**
 * The content service on the fake API: the test site settings (flagged as the error context when asked
 * with error=true), navigation and pages of the content fixtures, and the feature-flag definitions.
 */
export function contentScenario(options: ContentScenarioOptions = {}): void {
  const pages: Record<string, PageContentInput | 'fail'> = { ...pageInputs, ...options.pages };
  const { settings, features } = options;
  fakeApi.use(
    fakeCall(getSiteSettingsCall, ({ query }) =>
      settings === 'fail'
        ? { status: 500 }
        : {
            status: 200,
            body: [{ ...settingsInput, ...settings, isErrorContext: query.get('error') === 'true' }],
          },
    ),
    fakeCall(getNavigationCall, () =>
      options.navigation === 'fail' ? { status: 503 } : { status: 200, body: testNavigation },
    ),
    fakeCall(getContentByRelativeUrlCall, ({ query }) => {
      const found = pages[normaliseContentPath(query.get('relativeUrl') ?? '')];
      if (found === 'fail') return { status: 500 };
      if (!found) return { status: 404 };
      return { status: 200, body: found };
    }),
    fakeCall(getFeatureDefinitionsCall, () =>
      features === undefined ? { status: 404 } : { status: 200, body: features },
    ),
  );
}
