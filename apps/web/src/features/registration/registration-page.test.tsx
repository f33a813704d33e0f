import { pageContent, type PageOf } from '@portal/contracts/content';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { postAuditEventCall } from '@portal/contracts/eventlog';
import { startRegistrationCall } from '@portal/contracts/registration';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import registerContent from '../../../../../content/pages/register.json';
import { renderAuthPage } from '../../session/testing/render-auth-page';
import { setPageInit } from '../../lib/page-init';
import { callsTo, fakeApi, fakeCall, inTurn } from '../../test/fake-api/fake-api';
import { registrationScenario } from '../../test/fake-api/registration-scenario';
import RegistrationPage from './registration-page';

const page = pageContent.parse(registerContent) as PageOf<'RegistrationPage'>;

let cleanupNavigator: (() => void) | undefined;
async function renderRegistration(path = '/register') {
  const rendered = await renderAuthPage(<RegistrationPage page={page} />, path);
  cleanupNavigator = rendered.unregister;
  return rendered;
}

beforeEach(() => registrationScenario());
afterEach(() => {
  cleanupNavigator?.();
  setPageInit(undefined);
});

type RegistrationAnswer = 'OK' | 'OK_1' | 'OK_2' | 'NEED_MORE_DATA';
const answer = (status: RegistrationAnswer) => ({ status: 200, body: { status } }) as const;
/** Registration answers these statuses in turn, the last one repeating. */
const registrationAnswers = (first: RegistrationAnswer, ...more: RegistrationAnswer[]) =>
  fakeApi.use(fakeCall(startRegistrationCall, inTurn(answer(first), ...more.map(answer))));

const email = () => screen.getByRole('textbox', { name: 'Email address' });
const dob = () => screen.getByRole('textbox', { name: 'Date of birth' });
const postcode = () => screen.getByRole('textbox', { name: 'Postcode' });
const terms = () => screen.getByRole('checkbox', { name: 'I have read and agree to the terms of use' });
const continueButton = () => screen.getByRole('button', { name: 'Continue' });

async function fillDetails(user: ReturnType<typeof userEvent.setup>) {
  await user.type(email(), 'eleanor.hughes@example.co.uk');
  await user.type(dob(), '25111978');
  await user.type(postcode(), 'ex39 2qq');
  await user.click(terms());
}

describe('RegistrationPage', () => {
  it('builds the fields by type from content, without the policy number until it is needed', async () => {
    await renderRegistration();
    expect(
      screen.getByRole('heading', { level: 1, name: 'Register for an online account' }),
    ).toBeInTheDocument();
    expect(email()).toHaveAttribute('type', 'email');
    expect(email()).toHaveAttribute('autocomplete', 'email');
    expect(dob()).toHaveAttribute('inputmode', 'numeric');
    expect(dob()).toHaveAttribute('autocomplete', 'bday');
    expect(postcode()).toHaveAttribute('autocomplete', 'postal-code');
    expect(terms()).not.toBeChecked();
    expect(screen.queryByRole('textbox', { name: 'Policy number' })).not.toBeInTheDocument();
    // Hints are read with their fields.
    expect(postcode()).toHaveAccessibleDescription(/The postcode of the address on your policy/);
  });

  it('inserts the slashes of the date of birth while typing and keeps it to 10 characters', async () => {
    const user = userEvent.setup();
    await renderRegistration();
    await user.type(dob(), '2511');
    expect(dob()).toHaveValue('25/11/');
    await user.type(dob(), '197855');
    expect(dob()).toHaveValue('25/11/1978');
    await user.type(dob(), '{Backspace}{Backspace}{Backspace}{Backspace}{Backspace}');
    expect(dob()).toHaveValue('25/11');
  });

  it('enables Continue only when every field is valid, and names what is missing when pressed early', async () => {
    const user = userEvent.setup();
    await renderRegistration();
    expect(continueButton()).toHaveAttribute('aria-disabled', 'true');
    await user.type(email(), 'eleanor.hughes@example');
    await user.click(continueButton());
    const summary = await screen.findByRole('alert');
    expect(summary).toHaveFocus();
    expect(summary).toHaveTextContent('Enter an email address in the correct format');
    expect(summary).toHaveTextContent('Enter your date of birth');
    expect(summary).toHaveTextContent('Confirm you have read and agree to the terms of use');
    expect(email()).toHaveAccessibleDescription(/Enter an email address in the correct format/);
    expect(callsTo(startRegistrationCall)).toHaveLength(0);

    await user.clear(email());
    await fillDetails(user);
    expect(continueButton()).not.toHaveAttribute('aria-disabled');
  });

  it('refuses a date of birth in the future or not a real date', async () => {
    const user = userEvent.setup();
    await renderRegistration();
    await user.type(dob(), '31022000');
    await user.tab();
    expect(dob()).toHaveAccessibleDescription(/Enter a real date of birth in the past/);
    await user.clear(dob());
    await user.type(dob(), `0101${new Date().getFullYear() + 1}`);
    await user.tab();
    expect(dob()).toHaveAccessibleDescription(/Enter a real date of birth in the past/);
  });

  it('sends the details (date as YYYY-MM-DD), sets the registration journey flag and opens check-your-email on OK', async () => {
    registrationAnswers('OK');
    const user = userEvent.setup();
    const { location } = await renderRegistration();
    await fillDetails(user);
    await user.click(continueButton());
    await waitFor(() => expect(location().pathname).toBe('/register/check-your-email'));
    expect(callsTo(startRegistrationCall)[0]!.body).toEqual({
      emailAddress: 'eleanor.hughes@example.co.uk',
      dateOfBirth: '1978-11-25',
      postCode: 'EX39 2QQ',
    });
    expect(localStorage.getItem('registrationJourney')).toBe('1');
    await waitFor(() =>
      expect(callsTo(postAuditEventCall).map((c) => c.body)).toContainEqual(
        expect.objectContaining({ eventId: 'Registration', isSuccess: true }),
      ),
    );
  });

  it('shows the incorrect-email message for OK_1 and keeps the details', async () => {
    registrationAnswers('OK_1');
    const user = userEvent.setup();
    const { location } = await renderRegistration();
    await fillDetails(user);
    await user.click(continueButton());
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The email address does not match the one on your policy');
    expect(alert).toHaveFocus();
    expect(email()).toHaveValue('eleanor.hughes@example.co.uk');
    expect(location().pathname).toBe('/register');
  });

  it('shows the failure blocks for OK_2, and "try again" starts a fresh form', async () => {
    registrationAnswers('OK_2');
    const user = userEvent.setup();
    await renderRegistration();
    await fillDetails(user);
    await user.click(continueButton());
    expect(
      await screen.findByRole('heading', { name: 'We could not find your details' }),
    ).toBeInTheDocument();
    expect(screen.getByTestId('registration-failure')).toHaveFocus();
    expect(screen.queryByRole('textbox', { name: 'Email address' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Check my details and try again' }));
    expect(await screen.findByRole('textbox', { name: 'Email address' })).toHaveValue('');
  });

  it('asks for the policy number on NEED_MORE_DATA and sends again with it', async () => {
    registrationAnswers('NEED_MORE_DATA', 'OK');
    const user = userEvent.setup();
    const { location } = await renderRegistration();
    await fillDetails(user);
    await user.click(continueButton());
    const policyNumber = await screen.findByRole('textbox', { name: 'Policy number' });
    expect(policyNumber).toHaveFocus();
    expect(screen.getByText(/We need a little more information to find your policy/)).toBeInTheDocument();
    expect(continueButton()).toHaveAttribute('aria-disabled', 'true');
    await user.type(policyNumber, '507p8765432');
    await user.tab();
    expect(policyNumber).toHaveAccessibleDescription(/Enter your policy number exactly as it appears/);
    await user.type(policyNumber, '1');
    await user.click(continueButton());
    await waitFor(() => expect(location().pathname).toBe('/register/check-your-email'));
    expect(callsTo(startRegistrationCall)[1]!.body).toEqual({
      emailAddress: 'eleanor.hughes@example.co.uk',
      dateOfBirth: '1978-11-25',
      postCode: 'EX39 2QQ',
      policyNumber: '507P87654321',
    });
  });

  it('goes to /error when registration answers Error', async () => {
    fakeApi.use(
      fakeCall(startRegistrationCall, () => ({
        status: 503,
        body: {
          code: 'UNAVAILABLE',
          message: 'Try later',
          correlationId: 'test-correlation',
          status: 'Error',
        },
      })),
    );
    const user = userEvent.setup();
    const { location } = await renderRegistration();
    await fillDetails(user);
    await user.click(continueButton());
    await waitFor(() => expect(location().pathname).toBe('/error'));
  });

  it('goes to /error when the registration service cannot be reached', async () => {
    const user = userEvent.setup();
    const { location } = await renderRegistration();
    await fillDetails(user);
    fakeApi.use(fakeCall(startRegistrationCall, () => ({ status: 'network error' })));
    await user.click(continueButton());
    await waitFor(() => expect(location().pathname).toBe('/error'));
  });

  it('says to wait when there have been too many attempts', async () => {
    fakeApi.use(
      fakeCall(startRegistrationCall, () => ({
        status: 429,
        body: { code: 'TOO_MANY_REQUESTS', message: 'Slow down', correlationId: 'test-correlation' },
      })),
    );
    const user = userEvent.setup();
    await renderRegistration();
    await fillDetails(user);
    await user.click(continueButton());
    expect(await screen.findByRole('alert')).toHaveTextContent('too many attempts');
  });

  it('shows the invalid-token message for ?warning=bad-token', async () => {
    await renderRegistration('/register?warning=bad-token');
    expect(screen.getByText(/The link you used has expired or has already been used/)).toBeInTheDocument();
  });
});
