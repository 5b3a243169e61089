import { FleetObject } from '@flux-fleet/plugin-flux-fleet-common';
import { TROUBLE_STATES } from './stateText';
import { namedUpTo, plural } from './words';

/** How many services the sentence names before "and N more". */
const NAMED = 3;

/**
 * The team card's answer in one sentence, over the objects it read: how many failed, blocked or stalled, on how
 * many clusters, and which of the team's services they belong to, most affected first ("7 of the team's 57 Flux
 * objects failed, blocked or stalled, on 2 clusters: services image-resizer, translations."). When the card read
 * fewer objects than the team has, the sentence says so.
 */
export function groupHeadline(
  objects: ReadonlyArray<Pick<FleetObject, 'state' | 'service' | 'ref'>>,
  /** How many the team has in all, when the card read fewer. */
  totalCount: number = objects.length,
): string {
  const trouble = objects.filter(o => TROUBLE_STATES.includes(o.state.state));
  const all =
    totalCount > objects.length
      ? `the ${plural(objects.length, 'Flux object')} read (the team has ${totalCount.toLocaleString('en-US')})`
      : `the team's ${plural(objects.length, 'Flux object')}`;
  if (trouble.length === 0) return `None of ${all} failed, blocked or stalled.`;
  const clusters = new Set(trouble.map(o => o.ref.cluster));
  const perService = new Map<string, number>();
  for (const o of trouble) if (o.service) perService.set(o.service, (perService.get(o.service) ?? 0) + 1);
  const services = [...perService]
    .sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
    .map(([service]) => service);
  const where = clusters.size === 1 ? `on ${[...clusters][0]}` : `on ${clusters.size} clusters`;
  const which =
    services.length === 0
      ? ''
      : `: ${services.length === 1 ? 'service' : 'services'} ${namedUpTo(services, NAMED)}`;
  return `${trouble.length.toLocaleString('en-US')} of ${all} failed, blocked or stalled, ${where}${which}.`;
}
