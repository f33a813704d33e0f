import { isMobileNumber, nationalNumber } from '../phone';
import { newId } from '../secrets';

/** Second factors for a customer's numbers: a text and a call to a mobile, a call to a landline. */
export function factorsForNumbers(
  numbers: Array<string | null>,
): Array<{ id: string; factorType: 'sms' | 'call'; phoneNumber: string; isMobile: boolean }> {
  const distinct = [
    ...new Set(numbers.filter((n): n is string => !!n && n.trim() !== '').map(nationalNumber)),
  ];
  return distinct.flatMap((phoneNumber) => {
    const isMobile = isMobileNumber(phoneNumber);
    const call = { id: newId('clf'), factorType: 'call' as const, phoneNumber, isMobile };
    return isMobile
      ? [{ id: newId('sms'), factorType: 'sms' as const, phoneNumber, isMobile }, call]
      : [call];
  });
}
