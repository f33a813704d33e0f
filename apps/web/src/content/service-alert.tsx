import type { ServiceAlert } from '@portal/contracts/content';
import { useId } from 'react';
import { RichText } from './rich-text';

/** The service alert banner: shown only when its visible flag is set; a labelled region landmark. */
export function ServiceAlertBanner({ alert }: { alert: ServiceAlert | undefined }) {
  const titleId = useId();
  if (!alert?.visible) return null;
  return (
    <section className="service-alert" aria-labelledby={titleId}>
      <h2 className="service-alert__title" id={titleId}>
        {alert.title}
      </h2>
      <RichText html={alert.message} className="service-alert__message" />
    </section>
  );
}
