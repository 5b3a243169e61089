import { plural } from './words';
/**
 * The words of the Flux versions view (rules §10): how far an instance is behind, where its version was read,
 * what blocks its next upgrade, and the one sentence for the fleet.
 */
import type {
  FleetVersionView,
  FluxVersionSource,
  InstanceVersionRow,
  UpgradeBlocker,
} from '@flux-fleet/plugin-flux-fleet-common';

/** Where an instance's version was read, in words. */
export const VERSION_SOURCE_WORDS: Readonly<Record<FluxVersionSource, string>> =
  {
    'flux-operator': 'stated by the Flux Operator',
    'version-label': "read from the controllers' version label",
    'controller-images': "inferred from the controllers' image versions",
  };

/** "latest", "2 patch releases behind", "1 minor (3 releases) behind"; undefined when the version is unknown. */
export function behindText(row: InstanceVersionRow): string | undefined {
  if (row.version === undefined || row.releasesBehind === undefined)
    return undefined;
  if (row.releasesBehind === 0) return 'the latest release';
  if (!row.minorsBehind)
    return `${plural(row.releasesBehind, 'patch release')} behind`;
  return `${plural(row.minorsBehind, 'minor')} (${plural(
    row.releasesBehind,
    'release',
  )}) behind`;
}

/**
 * One line per stored version that blocks the upgrade, with the kinds whose CRDs still store it:
 * "v1beta2, stored by GitRepository, Kustomization (removed in Flux 2.8)".
 */
export function blockerLines(blockers: readonly UpgradeBlocker[]): string[] {
  const byVersion = new Map<string, { kinds: string[]; removedIn: number }>();
  for (const b of blockers) {
    const entry = byVersion.get(b.version) ?? {
      kinds: [],
      removedIn: b.removedIn,
    };
    entry.kinds.push(b.kind);
    entry.removedIn = Math.min(entry.removedIn, b.removedIn);
    byVersion.set(b.version, entry);
  }
  return [...byVersion.entries()].map(
    ([version, { kinds, removedIn }]) =>
      `${version}, stored by ${kinds.join(
        ', ',
      )} (removed in Flux 2.${removedIn})`,
  );
}

/** The `flux migrate` command that clears an instance's blockers, against its cluster's kubeconfig context. */
export function migrateCommand(
  row: Pick<InstanceVersionRow, 'cluster'>,
): string {
  return `flux migrate --context ${row.cluster}`;
}

/** The sentence the view leads with: how many instances run the latest release, and how many are blocked. */
export function versionsHeadline(view: FleetVersionView): string {
  const total = view.instances.length;
  const latest = view.instances.filter(r => r.releasesBehind === 0).length;
  const blocked = view.instances.filter(r => r.blockers.length > 0).length;
  const unknown = view.instances.filter(r => r.version === undefined).length;
  const parts = [
    `${latest} of ${plural(total, 'Flux instance')} run the latest release (${
      view.latest
    })`,
  ];
  if (blocked > 0)
    parts.push(
      `${blocked} must run flux migrate before ${
        blocked === 1 ? 'its' : 'their'
      } next upgrade`,
    );
  if (unknown > 0)
    parts.push(
      `${unknown} ${unknown === 1 ? 'shows' : 'show'} no Flux version`,
    );
  return `${parts.join('; ')}.`;
}
