/**
 * The fleet view of Flux versions (rules §10): which clusters run which release, how far behind the latest, and
 * what blocks each upgrade.
 */
import type { FluxCrdRecord } from './apiVersionFacts';
import { LATEST_KNOWN_FLUX_RELEASE, parseFluxVersion } from './fluxReleases';
import {
  deriveInstanceFluxVersion,
  releasesBehind,
  type FluxVersionSource,
} from './fluxVersion';
import { compareText } from './order';
import type { FluxController } from './types';
import { upgradeBlockers, type UpgradeBlocker } from './upgradeReadiness';

/** One instance in the fleet version view. */
export interface InstanceVersionRow {
  cluster: string;
  instance: string;
  version?: string;
  source?: FluxVersionSource;
  mixed: boolean;
  /** Minor releases between its version and the latest known (0 on the latest minor). */
  minorsBehind?: number;
  /** Releases (patches included) newer than its version. */
  releasesBehind?: number;
  /** The minor it would upgrade to next, e.g. `2.9`; absent on the latest minor. */
  nextMinor?: string;
  /** What stops that upgrade: stored versions the next minor removes. */
  blockers: UpgradeBlocker[];
}

/** The fleet version view. */
export interface FleetVersionView {
  latest: string;
  instances: InstanceVersionRow[];
  /** Flux version → the clusters running it, clusters sorted; `unknown` for instances nothing tells. */
  clustersByVersion: Record<string, string[]>;
}

/** The input per cluster: its controllers, what its Flux Operator states per instance, and its Flux CRDs. */
export interface ClusterVersionInput {
  cluster: string;
  controllers: readonly FluxController[];
  /** Instance → the version the Flux Operator states (FluxReport / FluxInstance). */
  operatorVersions?: ReadonlyMap<string, string>;
  crds: readonly FluxCrdRecord[];
}

/** Builds the fleet version view from every cluster's controllers and CRDs. */
export function fleetVersionView(
  clusters: readonly ClusterVersionInput[],
): FleetVersionView {
  const rows: InstanceVersionRow[] = [];
  const byVersion = new Map<string, Set<string>>();
  for (const input of clusters) {
    const instances = new Map<string, FluxController[]>();
    for (const c of input.controllers) {
      const list = instances.get(c.instance);
      if (list) list.push(c);
      else instances.set(c.instance, [c]);
    }
    for (const [instance, list] of instances) {
      const v = deriveInstanceFluxVersion(
        list,
        input.operatorVersions?.get(instance),
      );
      const row: InstanceVersionRow = {
        cluster: input.cluster,
        instance,
        mixed: v.mixed,
        blockers: [],
      };
      const parsed = parseFluxVersion(v.version);
      if (v.version !== undefined && parsed) {
        const behind = releasesBehind(v.version);
        row.version = v.version;
        row.source = v.source;
        row.minorsBehind = behind.minors;
        row.releasesBehind = behind.releases;
        if (parsed.minor < LATEST_KNOWN_FLUX_RELEASE.minor) {
          row.nextMinor = `2.${parsed.minor + 1}`;
        }
        row.blockers = upgradeBlockers(parsed.minor, input.crds);
      }
      rows.push(row);
      const key = row.version ?? 'unknown';
      const set = byVersion.get(key) ?? new Set<string>();
      set.add(input.cluster);
      byVersion.set(key, set);
    }
  }
  rows.sort(
    (a, b) =>
      compareText(a.cluster, b.cluster) || compareText(a.instance, b.instance),
  );
  const clustersByVersion: Record<string, string[]> = {};
  for (const key of [...byVersion.keys()].sort(compareText)) {
    clustersByVersion[key] = [...byVersion.get(key)!].sort(compareText);
  }
  return {
    latest: LATEST_KNOWN_FLUX_RELEASE.version,
    instances: rows,
    clustersByVersion,
  };
}
