import type { BlockOf } from '@portal/contracts/content';
import { CallToActionList } from '../../../content/call-to-action';
import { fillPlaceholders, telHref } from '../../../content/placeholders';
import { RichText } from '../../../content/rich-text';
import { useCustomerData } from '../../../content/use-customer-data';

/** A maps link from latitude and longitude (spec §7). */
function mapLink(latitude: number, longitude: number): string {
  return `https://www.google.com/maps/search/?api=1&query=${latitude},${longitude}`;
}

/** A clock time of the agency record as customers read it: "08:00" -> "8am", "17:30" -> "5:30pm". */
function formatClockTime(time: string): string {
  const [hours = 0, minutes = 0] = time.split(':').map(Number);
  const hour = hours % 12 === 0 ? 12 : hours % 12;
  return `${hour}${minutes ? `:${String(minutes).padStart(2, '0')}` : ''}${hours < 12 ? 'am' : 'pm'}`;
}

/**
 * The customer's agency (phone, address, map, website), or the content's fallback with the direct line's
 * hours. The hours are the Mutual Direct record's (the one source of them); the fallback text gives none.
 */
function AgencyCardBlock({ block }: { block: BlockOf<'agencyCard'> }) {
  const { data } = useCustomerData();
  if (!data) return null;
  const headingId = `${block.id}-heading`;
  const agency = data.agency;
  const direct = data.agencyForMutualDirect;
  const hours =
    direct?.mutualDirectTelephonesOpen && direct.mutualDirectTelephonesClose
      ? fillPlaceholders(block.openingHoursText, {
          open: formatClockTime(direct.mutualDirectTelephonesOpen),
          close: formatClockTime(direct.mutualDirectTelephonesClose),
        })
      : null;
  if (!agency) {
    return (
      <section className="dashboard-block agency-card" aria-labelledby={headingId}>
        <h2 id={headingId}>{block.fallback.heading ?? block.heading}</h2>
        <RichText html={block.fallback.body} />
        {hours && <p>{hours}</p>}
        <CallToActionList items={block.fallback.callsToAction} />
      </section>
    );
  }
  return (
    <section className="dashboard-block agency-card" aria-labelledby={headingId}>
      <h2 id={headingId}>{block.heading}</h2>
      <RichText html={block.body} />
      <p className="agency-card__name">{agency.name}</p>
      <dl className="summary-list">
        <div>
          <dt>{block.labels['phone'] ?? 'Phone'}</dt>
          <dd>
            <a href={telHref(agency.telephoneNumber)} className="nowrap">
              {agency.telephoneNumber}
            </a>
          </dd>
        </div>
        <div>
          <dt>{block.labels['address'] ?? 'Address'}</dt>
          <dd>{agency.address}</dd>
        </div>
        {agency.url && (
          <div>
            <dt>{block.labels['website'] ?? 'Website'}</dt>
            <dd>
              <a href={agency.url} target="_blank" rel="noopener noreferrer">
                {agency.name}
                <span className="visually-hidden"> (opens in a new tab)</span>
              </a>
            </dd>
          </div>
        )}
      </dl>
      <p>
        <a href={mapLink(agency.latitude, agency.longitude)} target="_blank" rel="noopener noreferrer">
          {block.mapLinkText}
        </a>
      </p>
      {hours && <p>{hours}</p>}
    </section>
  );
}

export default AgencyCardBlock;
