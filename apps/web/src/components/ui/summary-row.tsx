import type { ReactNode } from 'react';

/** One label and value of a summary list (`<dl className="summary-list">`). */
export function SummaryRow({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}
