import type { ReactNode } from 'react';

/** True when a row has nothing to show: no value, or only spaces. */
function isEmpty(value: ReactNode): boolean {
  if (value === null || value === undefined || value === false) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.every((part) => isEmpty(part as ReactNode));
  return false;
}

/**
 * One label and value of a summary list (`<dl className="summary-list">`). A row without a value is not
 * shown at all (a customer with no mobile sees no "Mobile number" row), as the landline's never was.
 */
export function SummaryRow({ label, children }: { label: string; children: ReactNode }) {
  if (isEmpty(children)) return null;
  return (
    <div>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}
