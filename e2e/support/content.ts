import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Reads the CMS content files, so journeys assert the texts a visitor is shown rather than copies. */
const contentDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'content');

export interface PageContentFile {
  url: string;
  type: string;
  heading?: string;
  requiresAuthentication?: boolean;
  meta?: { title?: string };
  messages?: Record<string, string>;
}

export function contentPage(file: string): PageContentFile {
  return JSON.parse(readFileSync(path.join(contentDir, 'pages', file), 'utf8')) as PageContentFile;
}

export function siteSettings(): { commonTexts?: Record<string, string> } & Record<string, unknown> {
  return JSON.parse(readFileSync(path.join(contentDir, 'site-settings.json'), 'utf8')) as {
    commonTexts?: Record<string, string>;
  };
}

export function footerLinks(): Array<{ title: string; url: string }> {
  const nav = JSON.parse(readFileSync(path.join(contentDir, 'navigation.json'), 'utf8')) as {
    footer?: Array<{ title: string; url: string }>;
  };
  return nav.footer ?? [];
}

/** Every page content serves to a visitor without signing in, as its content file describes it. */
export function publicPages(): PageContentFile[] {
  return readdirSync(path.join(contentDir, 'pages'))
    .filter((file) => file.endsWith('.json'))
    .map((file) => contentPage(file))
    .filter((page) => !page.requiresAuthentication);
}
