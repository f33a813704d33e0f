/* global console, process */
/*
 * The leaflets served from content/media (policy document inserts), made from their texts below and the
 * site's freephone number in content/site-settings.json, so that a leaflet never gives another number than
 * the pages do. Change a text or the number, then run `npm run content:leaflets` and commit the PDFs;
 * scripts/contact-facts.test.ts fails while a committed leaflet says something else.
 */
import { createWriteStream, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import PDFDocument from 'pdfkit';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const mediaDir = path.join(root, 'content/media');

/** The freephone number every page gives: settings' infinityPhoneTracking, the one source of it. */
export function sitePhone() {
  const settings = JSON.parse(readFileSync(path.join(root, 'content/site-settings.json'), 'utf8'));
  return settings.infinityPhoneTracking;
}

const footer =
  'This leaflet is for information. Your policy wording and schedule set out the full terms of your cover.';

/** Each leaflet's file, title and sections; `{phone}` is the site's freephone number. */
const leafletSources = [
  {
    file: 'how-to-complain.pdf',
    title: 'How to complain',
    sections: [
      [
        'Tell us first',
        'If we have not got something right, please tell us. Call us free on {phone}, use the contact form in your online account, or write to Customer Relations, Meridian Mutual.',
      ],
      [
        'What we will do',
        'We will acknowledge your complaint within five working days and aim to resolve it within four weeks. We will send you our final response in writing within eight weeks.',
      ],
      [
        'The Financial Ombudsman Service',
        'If you are not happy with our final response, or we have not replied within eight weeks, you may ask the Financial Ombudsman Service to review your complaint free of charge: www.financial-ombudsman.org.uk or 0800 023 4567.',
      ],
      ['Your rights', 'Using our complaints procedure does not affect your legal rights.'],
    ],
  },
  {
    file: 'home-insurance-claims-guide.pdf',
    title: 'Home insurance: how to make a claim',
    sections: [
      [
        'Before you call us',
        'Make your home safe and stop further damage if you can, for example by turning off the water at the stopcock. Keep damaged items until we have seen them or say you may dispose of them.',
      ],
      [
        'Tell us as soon as you can',
        'Call our claims team free on {phone}, 24 hours a day. Have your policy number to hand. If there has been a theft or malicious damage, report it to the police first and note the crime reference number.',
      ],
      [
        'What happens next',
        'We will explain what your policy covers, arrange emergency repairs where needed and, for larger claims, send a loss adjuster to see the damage. We will keep you updated until your claim is settled.',
      ],
      [
        'Your excess',
        'The excess shown in your policy schedule is the amount you pay towards each claim. We take it off the settlement.',
      ],
    ],
  },
  {
    file: 'motor-accident-guide.pdf',
    title: 'Motor insurance: what to do after an accident',
    sections: [
      [
        'At the scene',
        'Stop, make sure everyone is safe and call 999 if anyone is hurt. Do not admit responsibility.',
      ],
      [
        'Exchange details',
        'Swap names, addresses, registrations and insurer details with the other drivers. Note the names and contact details of any witnesses and take photographs if it is safe to.',
      ],
      [
        'Tell us',
        'Call our claims team free on {phone}, 24 hours a day, as soon as you can, even if you do not want to claim. Have your policy number and the registration of your car to hand.',
      ],
      [
        'Repairs',
        'We will arrange repairs at one of our approved repairers, who guarantee their work, and a courtesy car while yours is off the road if your cover includes one.',
      ],
    ],
  },
  {
    file: 'fine-art-care-guide.pdf',
    title: 'Caring for fine art and collectables',
    sections: [
      [
        'Display and light',
        'Keep paintings, works on paper and textiles out of direct sunlight and away from radiators, fireplaces and damp outside walls.',
      ],
      [
        'Valuations',
        'Have your collection valued at least every three years so that your sums insured keep up with the market. Send us copies of new valuations.',
      ],
      [
        'Moving items',
        'Tell us before items leave your home for loan, restoration or exhibition, so that we can confirm your cover while they are away.',
      ],
      [
        'Records',
        'Keep photographs, receipts and valuation certificates somewhere other than your home. They make a claim quicker to settle.',
      ],
    ],
  },
];

/** The leaflets with the number filled in: what each PDF says, in reading order. */
export function leaflets(phone = sitePhone()) {
  const fill = (text) => text.replaceAll('{phone}', phone);
  return leafletSources.map(({ file, title, sections }) => ({
    file,
    title,
    sections: sections.map(([heading, body]) => [heading, fill(body)]),
    footer,
  }));
}

/** Draws one leaflet into a PDF file (pdfkit's built-in Helvetica, A4, a fixed date so that the bytes repeat). */
function writeLeaflet(leaflet, file) {
  const doc = new PDFDocument({
    size: 'A4',
    margin: 56,
    info: { Title: leaflet.title, Author: 'Meridian Mutual', CreationDate: new Date(Date.UTC(2026, 0, 1)) },
  });
  const done = new Promise((resolve, reject) => {
    const out = createWriteStream(file);
    out.on('finish', resolve).on('error', reject);
    doc.pipe(out);
  });
  doc.fillColor('#1d5c3b').font('Helvetica-Bold').fontSize(10).text('Meridian Mutual');
  doc.moveDown(1.5);
  doc.fillColor('#000000').fontSize(20).text(leaflet.title);
  for (const [heading, body] of leaflet.sections) {
    doc.moveDown(1);
    doc.font('Helvetica-Bold').fontSize(13).text(heading);
    doc.moveDown(0.3);
    doc.font('Helvetica').fontSize(11).text(body);
  }
  doc.moveDown(2);
  doc.fillColor('#444444').font('Helvetica').fontSize(9).text(leaflet.footer);
  doc.end();
  return done;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const leaflet of leaflets()) {
    await writeLeaflet(leaflet, path.join(mediaDir, leaflet.file));
    console.log(`content/media/${leaflet.file}`);
  }
}
