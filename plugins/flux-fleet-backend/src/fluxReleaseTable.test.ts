/**
 * The release table of `-common` against the simulator's own list (the simulator keeps its copy: it may not
 * import plugin code). Both were written from Flux's release manifests and CRDs; a difference means one is wrong.
 */
import {
  FLUX_KINDS,
  fluxReleaseInfo,
  LATEST_KNOWN_FLUX_RELEASE,
  servedApiVersions,
} from '@flux-fleet/plugin-flux-fleet-common';
import { FLUX_RELEASES, servedFluxVersions } from '@flux-fleet/fleet-sim';

describe('the Flux release table and the simulator', () => {
  it.each(FLUX_RELEASES.map(r => [r.version, r] as const))(
    'the table ships the same controller images as the simulator for %s',
    (version, release) => {
      const row = fluxReleaseInfo(version);
      expect(row).toBeDefined();
      expect(row!.controllers).toEqual(release.controllerTags);
    },
  );

  it('the simulator runs up to the newest release the table knows', () => {
    expect(FLUX_RELEASES[FLUX_RELEASES.length - 1].version).toBe(
      LATEST_KNOWN_FLUX_RELEASE.version,
    );
  });

  it.each(FLUX_RELEASES.map(r => [r.minor] as const))(
    'Flux 2.%i serves the same API versions of every kind in both',
    minor => {
      for (const kind of FLUX_KINDS) {
        expect([kind, servedApiVersions(kind, minor)]).toEqual([
          kind,
          servedFluxVersions(kind, minor),
        ]);
      }
    },
  );
});
