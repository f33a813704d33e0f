import { sendContactMessageCall } from '@portal/contracts/contact';
import type { BlockOf } from '@portal/contracts/content';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, fakeCall } from '../../../test/fake-api/fake-api';
import { DRAFT_KEPT_MS, keepOpenDrafts } from '../../../session/drafts';
import { renderWithRoot } from '../../../test/render-with-root';
import { signedInAs } from '../../../test/signed-in';
import ContactFormBlock, { primaryFromUrl, remainingCharacters } from './contact-form';

const block = {
  id: 'contact-form',
  type: 'contactForm',
  primaryQuestion: {
    label: 'Which policy is your message about?',
    answers: [
      {
        id: 'home',
        label: 'Home insurance',
        productType: 'PHL',
        secondaryAnswers: [
          { id: 'home-address', label: 'I am moving house', messageType: 'ChangeAddress' },
          {
            id: 'home-claim',
            label: 'I need to make a claim',
            messageType: 'Claim',
            override: { heading: 'Make a claim', body: '<p>Call our claims team.</p>', callsToAction: [] },
          },
        ],
      },
      {
        id: 'motor',
        label: 'Motor insurance',
        productType: 'MPC',
        secondaryAnswers: [{ id: 'motor-other', label: 'Something else', messageType: 'General' }],
      },
    ],
  },
  secondaryQuestionLabel: 'What is your message about?',
  formLabel: 'Contact us',
  errorSummaryHeading: 'There is a problem',
  primaryRequiredMessage: 'Choose which policy your message is about',
  secondaryRequiredMessage: 'Choose what your message is about',
  message: {
    id: 'contact-message',
    name: 'messageText',
    type: 'textarea',
    label: 'Your message',
    errorMessage: 'Your message must be 500 characters or fewer',
    requiredMessage: 'Enter your message',
    required: true,
    disabled: false,
    maxLength: 500,
  },
  remainingText: 'You have {count} characters remaining',
  submitText: 'Send message',
  successUrl: '/contact-us/message-sent',
  errorHtml: '<p>Sorry, we could not send your message.</p>',
} as unknown as BlockOf<'contactForm'>;

describe('contact form rules (spec §5)', () => {
  it('takes ?primary= only when it is a valid index', () => {
    expect(primaryFromUrl('1', 2)).toBe(1);
    expect(primaryFromUrl('2', 2)).toBeNull();
    expect(primaryFromUrl('-1', 2)).toBeNull();
    expect(primaryFromUrl('1.5', 2)).toBeNull();
    expect(primaryFromUrl(null, 2)).toBeNull();
  });

  it('counts the characters left', () => {
    expect(remainingCharacters('', 500)).toBe(500);
    expect(remainingCharacters('Hello', 500)).toBe(495);
  });
});

describe('contact form', () => {
  let signOut: () => void;
  beforeEach(() => {
    signOut = signedInAs('C1000007');
  });
  afterEach(() => signOut());

  it('asks the questions in turn, shows an override instead of the text box, and counts characters', async () => {
    renderWithRoot(<ContactFormBlock block={block} />, { path: '/contact-us?primary=0' });
    expect(await screen.findByRole('radio', { name: 'Home insurance' })).toBeChecked();
    await userEvent.click(screen.getByRole('radio', { name: 'I need to make a claim' }));
    expect(screen.getByRole('heading', { name: 'Make a claim' })).toBeInTheDocument();
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('radio', { name: 'I am moving house' }));
    await userEvent.type(screen.getByRole('textbox', { name: 'Your message' }), 'Moving in March');
    expect(screen.getByText('You have 485 characters remaining')).toBeInTheDocument();
  });

  it('keeps what was typed when sending fails, and goes to the success page when it works', async () => {
    let fail = true;
    const sent: unknown[] = [];
    fakeApi.use(
      fakeCall(sendContactMessageCall, ({ body }) => {
        sent.push(body);
        return fail ? { status: 502 } : { status: 200, body: { success: true } };
      }),
    );
    const { router } = renderWithRoot(<ContactFormBlock block={block} />, { path: '/contact-us' });
    await userEvent.click(await screen.findByRole('radio', { name: 'Motor insurance' }));
    await userEvent.click(screen.getByRole('radio', { name: 'Something else' }));
    const box = screen.getByRole('textbox', { name: 'Your message' });
    await userEvent.click(screen.getByRole('button', { name: 'Send message' }));
    expect(await screen.findByRole('alert', { name: 'There is a problem' })).toHaveTextContent(
      'Enter your message',
    );
    expect(box).toHaveAccessibleDescription(/Enter your message/);
    expect(screen.getByRole('form', { name: 'Contact us' })).toContainElement(box);
    expect(sent).toEqual([]);

    await userEvent.type(box, 'Please call me about my renewal.');
    await userEvent.click(screen.getByRole('button', { name: 'Send message' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Sorry, we could not send your message.');
    expect(box).toHaveValue('Please call me about my renewal.');

    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Send message' }));
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/contact-us/message-sent'));
    expect(sent.at(-1)).toEqual({
      productType: 'MPC',
      messageType: 'General',
      messageText: 'Please call me about my renewal.',
    });
  }, 20_000);

  describe('a message being written when the inactivity timer signs the customer out (issue 40)', () => {
    const kept = 'We kept the message you were writing when we signed you out.';
    const withTexts = { ...block, draftKeptText: kept, discardDraftText: 'Start again' } as typeof block;
    afterEach(() => localStorage.clear());

    /** Opens the form, chooses motor and writes `text`, then keeps it as the idle sign-out does. */
    async function writeAndKeep(text: string) {
      const { unmount } = renderWithRoot(<ContactFormBlock block={withTexts} />, { path: '/contact-us' });
      await userEvent.click(await screen.findByRole('radio', { name: 'Motor insurance' }));
      await userEvent.click(screen.getByRole('radio', { name: 'Something else' }));
      if (text) await userEvent.type(screen.getByRole('textbox', { name: 'Your message' }), text);
      expect(keepOpenDrafts('/contact-us')).toBe(text ? '/contact-us' : null);
      unmount();
    }

    it('comes back as typed for the same customer, saying so, and goes once sent', async () => {
      await writeAndKeep('About my windscreen');
      fakeApi.use(fakeCall(sendContactMessageCall, () => ({ status: 200, body: { success: true } })));
      const { router } = renderWithRoot(<ContactFormBlock block={withTexts} />, { path: '/contact-us' });
      // Said where a screen reader hears it, as the form opens.
      expect((await screen.findByText(kept)).closest('[role="status"]')).not.toBeNull();
      expect(screen.getByRole('radio', { name: 'Motor insurance' })).toBeChecked();
      expect(screen.getByRole('radio', { name: 'Something else' })).toBeChecked();
      expect(screen.getByRole('textbox', { name: 'Your message' })).toHaveValue('About my windscreen');
      await userEvent.click(screen.getByRole('button', { name: 'Send message' }));
      await vi.waitFor(() => expect(router.state.location.pathname).toBe('/contact-us/message-sent'));
      expect(localStorage.getItem('portal.keptDrafts')).toBeNull();
    }, 20_000);

    it('keeps nothing when nothing was written, and the customer may discard what was kept', async () => {
      await writeAndKeep('');
      expect(localStorage.getItem('portal.keptDrafts')).toBeNull();
      await writeAndKeep('Something to throw away');
      renderWithRoot(<ContactFormBlock block={withTexts} />, { path: '/contact-us' });
      await userEvent.click(await screen.findByRole('button', { name: 'Start again' }));
      expect(screen.queryByText(kept)).not.toBeInTheDocument();
      expect(screen.getByRole('radio', { name: 'Motor insurance' })).not.toBeChecked();
      expect(localStorage.getItem('portal.keptDrafts')).toBeNull();
    }, 20_000);

    it('is never given to another customer, nor after a day', async () => {
      await writeAndKeep('For my eyes only');
      signOut();
      signOut = signedInAs('C1000001');
      renderWithRoot(<ContactFormBlock block={withTexts} />, { path: '/contact-us' }).unmount();
      const other = renderWithRoot(<ContactFormBlock block={withTexts} />, { path: '/contact-us' });
      expect(await screen.findByRole('radio', { name: 'Motor insurance' })).not.toBeChecked();
      expect(screen.queryByText(kept)).not.toBeInTheDocument();
      other.unmount();

      signOut();
      signOut = signedInAs('C1000007');
      const now = Date.now();
      const later = vi.spyOn(Date, 'now').mockReturnValue(now + DRAFT_KEPT_MS + 1000);
      renderWithRoot(<ContactFormBlock block={withTexts} />, { path: '/contact-us' });
      expect(await screen.findByRole('radio', { name: 'Motor insurance' })).not.toBeChecked();
      expect(screen.queryByText(kept)).not.toBeInTheDocument();
      later.mockRestore();
    }, 20_000);
  });
});
