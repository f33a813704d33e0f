import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { demoAgencies } from '../apps/server/src/db/demo/portfolio';
import { pdfText } from '../e2e/support/pdf-text';
import { leaflets, mediaDir, sitePhone } from './leaflets.mjs';

/*
 * One source for each contact fact a customer reads (issue 23, point 7), and a failure as soon as another
 * place says something else:
 * - the freephone number: content/site-settings.json's infinityPhoneTracking. Every page's text and tel:
 *   link says `{phone}`, which the content service fills from it; the Meridian Mutual Direct agency record
 *   (reference data seeded from db/demo/portfolio.ts) and the leaflets in content/media (made by
 *   scripts/leaflets.mjs from the same setting) give that number;
 * - the direct line's hours: the Mutual Direct agency record (telephonesOpen, telephonesClose), which the
 *   dashboard's contact card shows through the agency card's openingHoursText; every text that states the
 *   hours states the same ones.
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const contentDir = path.join(root, 'content');
const phone = sitePhone();
const digits = (number: string) => number.replace(/\D/g, '');
/** Numbers that are not ours, given as they are: the Financial Ombudsman Service's. */
const othersNumbers = new Set(['0800 023 4567'].map(digits));
const phonePattern = /\b0\d{3} ?\d{3} ?\d{4}\b/g;
/** A number found in a text that is neither ours nor one of the others' given above. */
const notOurs = (number: string) => digits(number) !== digits(phone) && !othersNumbers.has(digits(number));

/** Every string of every content JSON file, with where it is. */
function contentTexts(): Array<{ where: string; text: string }> {
  const texts: Array<{ where: string; text: string }> = [];
  const walk = (value: unknown, where: string) => {
    if (typeof value === 'string') texts.push({ where, text: value });
    else if (Array.isArray(value)) value.forEach((item, i) => walk(item, `${where}[${i}]`));
    else if (value && typeof value === 'object')
      for (const [key, item] of Object.entries(value)) walk(item, `${where}.${key}`);
  };
  const visit = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) visit(file);
      else if (entry.name.endsWith('.json'))
        walk(JSON.parse(readFileSync(file, 'utf8')), path.relative(contentDir, file));
    }
  };
  visit(contentDir);
  return texts;
}

/** "08:00" -> "8am", "17:30" -> "5:30pm", as the agency card shows a record's times. */
function spoken(time: string): string {
  const [hours = 0, minutes = 0] = time.split(':').map(Number);
  return `${hours % 12 || 12}${minutes ? `:${String(minutes).padStart(2, '0')}` : ''}${hours < 12 ? 'am' : 'pm'}`;
}

const direct = demoAgencies.find((agency) => agency.isMutualDirect);

describe('contact facts: one source each', () => {
  it('the freephone number is set, and the Mutual Direct record gives the same one', () => {
    expect(phone).toMatch(/^0800 \d{3} \d{4}$/);
    expect(direct?.telephoneNumber).toBe(phone);
  });

  it('no phone number is written out in content: texts say {phone} and links tel:{phone} (issue 38)', () => {
    const wrong = contentTexts()
      // The setting itself is the one place the number is written.
      .filter(({ where }) => where !== 'site-settings.json.infinityPhoneTracking')
      .flatMap(({ where, text }) => [
        ...[...text.matchAll(phonePattern)]
          .map(([number]) => number)
          // The Financial Ombudsman Service's is theirs to give, not a setting of ours.
          .filter((number) => !othersNumbers.has(digits(number)))
          .map((number) => `${where}: ${number}`),
        ...[...text.matchAll(/tel:([^"'\s<]+)/g)]
          .map(([, number]) => number!)
          .filter((number) => number !== '{phone}')
          .map((number) => `${where}: tel:${number}`),
      ]);
    expect(wrong).toEqual([]);
  });

  it("every text stating the direct line's hours states the Mutual Direct record's", () => {
    expect(direct?.telephonesOpen).toBeTruthy();
    const weekdays = `Monday to Friday, ${spoken(direct!.telephonesOpen!)} to ${spoken(direct!.telephonesClose!)}`;
    const texts = contentTexts();
    const card = texts.find(({ where }) => where.endsWith('openingHoursText'));
    expect(card?.text).toContain('Monday to Friday, {open} to {close}');
    const saturday = /Saturday, [^.,]+/.exec(card!.text)?.[0];
    const wrong = texts
      .filter(({ where }) => !where.endsWith('openingHoursText'))
      .flatMap(({ where, text }) => [
        ...(/Monday to Friday/.test(text) && !text.includes(weekdays) ? [`${where}: ${text}`] : []),
        ...(/Saturday, \d/.test(text) && !(saturday && text.includes(saturday)) ? [`${where}: ${text}`] : []),
      ]);
    expect(wrong).toEqual([]);
  });

  it.each(leaflets().map((leaflet) => [leaflet.file, leaflet] as const))(
    'the %s leaflet says what scripts/leaflets.mjs makes of its text and the freephone number',
    (file, leaflet) => {
      const text = pdfText(readFileSync(path.join(mediaDir, file)));
      const expected = ['Meridian Mutual', leaflet.title, ...leaflet.sections.flat(), leaflet.footer];
      expect(text).toBe(expected.join(''));
      const numbers = [...text.matchAll(phonePattern)].map(([number]) => number);
      expect(numbers.filter(notOurs)).toEqual([]);
    },
  );
});
