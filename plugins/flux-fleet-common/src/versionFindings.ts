/**
 * The instance-level version findings of a cluster (rules §10): `mixed-versions` and `upgrade-blocked`, from the
 * instance summaries the analysis builds and the cluster's Flux CRDs.
 */
import type { InstanceSummary } from './api';
import type { FluxCrdRecord } from './apiVersionFacts';
import { deriveInstanceFluxVersion, mixedVersionsFinding } from './fluxVersion';
import type { Finding } from './types';
import { upgradeBlockedFinding } from './upgradeReadiness';

/** `mixed-versions` and `upgrade-blocked` for each instance; none of the latter without CRDs. */
export function instanceVersionFindings(
  instances: readonly InstanceSummary[],
  crds: readonly FluxCrdRecord[] | undefined,
): Finding[] {
  const findings: Finding[] = [];
  for (const instance of instances) {
    const mixed = mixedVersionsFinding(
      instance.cluster,
      instance.name,
      deriveInstanceFluxVersion(instance.controllers),
    );
    if (mixed) findings.push(mixed);
    if (crds && crds.length > 0 && instance.version !== undefined) {
      const blocked = upgradeBlockedFinding(
        instance.cluster,
        instance.name,
        instance.version,
        crds,
      );
      if (blocked) findings.push(blocked);
    }
  }
  return findings;
}
