/** UK phone numbers as the customer records hold them (07700 900123, +44 1632 960456, ...). */

/** National form, digits only: +44 / 0044 become a leading 0. */
export function nationalNumber(phone: string): string {
  const digits = phone.replace(/\D/g, '');
  if (digits.startsWith('0044')) return `0${digits.slice(4)}`;
  if (digits.startsWith('44') && digits.length === 12) return `0${digits.slice(2)}`;
  return digits;
}

/** A UK mobile number (07 and nine more digits): codes sent to it have 6 digits, not 5. */
export function isMobileNumber(phone: string): boolean {
  return /^07\d{9}$/.test(nationalNumber(phone));
}

/** Masked to the last 3 digits, in Okta's style: "+44 XXXX XXX123". Neither the kind of line nor the area shows. */
export function maskPhone(phone: string): string {
  return `+44 XXXX XXX${nationalNumber(phone).slice(-3)}`;
}
