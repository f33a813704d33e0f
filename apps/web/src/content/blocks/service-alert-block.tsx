import type { BlockOf } from '@portal/contracts/content';
import { ServiceAlertBanner } from '../service-alert';

export function ServiceAlertBlock({ block }: { block: BlockOf<'serviceAlert'> }) {
  return <ServiceAlertBanner alert={block.alert} />;
}
