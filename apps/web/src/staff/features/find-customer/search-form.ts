import type { StaffSearchBody } from '@portal/contracts/staff';
import type { ErrorSummaryItem } from '../../../components/ui/error-summary';
import { texts } from '../../content/texts';
import {
  checkCustomerId,
  checkDateOfBirth,
  checkEmail,
  checkPolicyNumber,
  checkPostcode,
  checkReason,
  checkSurname,
} from '../../lib/validation';

/** What the search form holds, as typed. */
export interface SearchValues {
  by: StaffSearchBody['query']['by'] | null;
  customerId: string;
  email: string;
  policyNumber: string;
  surname: string;
  dateOfBirth: string;
  postcode: string;
  reason: string;
}

export const emptySearch: SearchValues = {
  by: null,
  customerId: '',
  email: '',
  policyNumber: '',
  surname: '',
  dateOfBirth: '',
  postcode: '',
  reason: '',
};

export type SearchField = keyof SearchValues;

/** The form's field ids (error summary links land on them). */
export const searchFieldIds: Record<SearchField, string> = {
  by: 'search-by',
  customerId: 'search-customer-id',
  email: 'search-email',
  policyNumber: 'search-policy-number',
  surname: 'search-surname',
  dateOfBirth: 'search-date-of-birth',
  postcode: 'search-postcode',
  reason: 'search-reason',
};

export type SearchErrors = Partial<Record<SearchField, string>>;

/**
 * Checks the form as it is sent (the GOV.UK pattern: on submit, every problem at once): the errors by
 * field in the form's order, or the body of the search call.
 */
export function checkSearch(
  values: SearchValues,
  today?: Date,
): { errors: SearchErrors; body?: undefined } | { errors: null; body: StaffSearchBody } {
  const errors: SearchErrors = {};
  const v = texts.validation;
  let query: StaffSearchBody['query'] | undefined;
  switch (values.by) {
    case null:
      errors.by = v.by;
      break;
    case 'customerId': {
      const id = checkCustomerId(values.customerId);
      if (id.error) errors.customerId = v.customerId[id.error];
      else query = { by: 'customerId', customerId: id.value };
      break;
    }
    case 'email': {
      const email = checkEmail(values.email);
      if (email.error) errors.email = v.email[email.error];
      else query = { by: 'email', email: email.value };
      break;
    }
    case 'policyNumber': {
      const number = checkPolicyNumber(values.policyNumber);
      if (number.error) errors.policyNumber = v.policyNumber[number.error];
      else query = { by: 'policyNumber', policyNumber: number.value };
      break;
    }
    case 'nameAndBirth': {
      const surname = checkSurname(values.surname);
      const dateOfBirth = checkDateOfBirth(values.dateOfBirth, today);
      const postcode = checkPostcode(values.postcode);
      if (surname.error) errors.surname = v.surname[surname.error];
      if (dateOfBirth.error) errors.dateOfBirth = v.dateOfBirth[dateOfBirth.error];
      if (postcode.error) errors.postcode = v.postcode[postcode.error];
      if (!surname.error && !dateOfBirth.error && !postcode.error) {
        query = {
          by: 'nameAndBirth',
          surname: surname.value,
          dateOfBirth: dateOfBirth.value,
          postcode: postcode.value,
        };
      }
      break;
    }
  }
  const reason = checkReason(values.reason);
  if (reason.error) errors.reason = v.reason[reason.error];
  if (!query || reason.error) return { errors };
  return { errors: null, body: { reason: reason.value, query } };
}

/** The error summary's items, in the form's order. */
export function summaryOf(errors: SearchErrors): ErrorSummaryItem[] {
  return (Object.keys(searchFieldIds) as SearchField[])
    .filter((field) => errors[field])
    .map((field) => ({ id: searchFieldIds[field], message: errors[field] }));
}
