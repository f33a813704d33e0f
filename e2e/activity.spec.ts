import { signIn, toDashboardPastMarketingStep } from './auth-helpers';
import { expect, test } from './support/fixtures';
import { expectScreenAtEverySize } from './support/screens';

/*
 * "Your account activity" (issue 26 point 4, decision 027): Joan signs in, changes her marketing choice,
 * and opens her activity from Sign-in and security. The newest items are exactly this journey's (the
 * change, the sign-in, the code sent), her seeded history is below them, and "Show older activity" adds
 * the older items, moving focus to the first and announcing how many. Joan is this journey's own demo
 * customer (README, "Demo sign-in"); the screen is checked with axe at a desktop's and a phone's width.
 */

const joan = {
  email: 'joan.whitfield@example.co.uk',
  password: 'PrioryWalkTewks50',
  phone: { number: '07700900432', radio: 'Text message to +44 XXXX XXX432' },
};

test('Joan sees what she just did at the top of her account activity, and her older activity below', async ({
  page,
  request,
}) => {
  const started = Date.now();
  await page.goto('/login');
  await signIn(page, request, joan, joan.phone);
  await toDashboardPastMarketingStep(page);

  // Something that is recorded: the answer to tailored offers, the other way from what it was.
  await page.goto('/profile/preferences');
  const yes = page.getByRole('radio', { name: 'Yes, show me tailored offers' });
  const no = page.getByRole('radio', { name: 'No, thank you' });
  await expect(yes.or(no).first()).toBeVisible();
  const nowYes = !(await yes.isChecked());
  await (nowYes ? yes : no).check();
  await page.getByRole('button', { name: 'Save marketing preferences' }).click();
  await expect(page.getByText('Your marketing preferences have been saved.')).toBeVisible();

  // From Sign-in and security to the activity.
  await page.goto('/profile/login-security');
  await page.getByRole('link', { name: 'See your account activity' }).click();
  await expect(page).toHaveURL(/\/profile\/account-activity$/);
  await expect(page.getByRole('heading', { name: 'Your account activity', level: 1 })).toBeVisible();
  const items = page.locator('.account-activity__item');
  await expect(items.first()).toBeVisible();

  /** Each item shown: its instant, its title and its details. */
  const shown = () =>
    items.evaluateAll((lis) =>
      lis.map((li) => ({
        at: Date.parse(li.querySelector('time')!.getAttribute('datetime')!),
        time: li.querySelector('time')!.textContent,
        title: li.querySelector('.account-activity__title')!.textContent,
        details: Array.from(li.querySelectorAll('.account-activity__detail')).map((d) => d.textContent),
      })),
    );
  const first = await shown();
  const thisJourney = first.filter((item) => item.at >= started - 1000);
  expect(thisJourney.map(({ title, details }) => ({ title, details }))).toEqual([
    {
      title: 'You saved your marketing choices',
      details: [`You chose: ${nowYes ? 'online' : 'no marketing'}`],
    },
    { title: 'You signed in', details: ['With text message'] },
    { title: 'We sent you a security code', details: ['By text message to +44 XXXX XXX432'] },
  ]);
  // They are the newest; the seeded history (days and months ago) follows, newest first, in UK time.
  expect(first.slice(0, 3)).toEqual(thisJourney);
  expect(first.length).toBeGreaterThan(3);
  for (let i = 1; i < first.length; i++) expect(first[i - 1]!.at).toBeGreaterThanOrEqual(first[i]!.at);
  for (const item of first) expect(item.time).toMatch(/^\d{1,2}:\d{2}(am|pm)$/);
  await expect(page.getByRole('heading', { level: 2 }).first()).toHaveText(
    new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Europe/London',
      weekday: 'long',
      day: 'numeric',
      month: 'long',
      year: 'numeric',
    })
      .format(new Date(first[0]!.at))
      .replace(',', ''),
  );
  await expectScreenAtEverySize(page);

  // Older activity: focus moves to the first item added, and the number added is announced.
  await page.getByRole('button', { name: 'Show older activity' }).click();
  await expect(items.nth(first.length)).toBeFocused();
  await expect(page.getByText(/^\d+ older items shown$/)).toBeAttached();
  const all = await shown();
  expect(all.slice(0, first.length)).toEqual(first);
  expect(all.at(-1)!.title).toBe('You set up your online account');
  await expect(page.getByText('There is no older activity.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Show older activity' })).toHaveCount(0);
});
