import { fluxCliCommands, shellQuote } from './fluxCli';
import type { FluxObjectRef } from './types';
import { FLUX_KINDS, FluxKind } from './vocabulary';

const ref = (
  kind: FluxKind,
  name = 'payments',
  namespace = 'team-payments',
): FluxObjectRef => ({
  cluster: 'prod-eu',
  namespace,
  kind,
  name,
});

function byId(kind: FluxKind, options = {}) {
  return Object.fromEntries(
    fluxCliCommands(ref(kind), options).map(c => [c.id, c.command]),
  );
}

describe('fluxCliCommands', () => {
  it('gives every command for a Kustomization, against the cluster as context', () => {
    expect(
      fluxCliCommands(ref('Kustomization'), {
        apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
        instance: 'flux-system',
      }),
    ).toEqual([
      {
        id: 'get',
        label: 'Show its state',
        command:
          'flux get kustomization payments -n team-payments --context prod-eu',
      },
      {
        id: 'reconcile',
        label: 'Reconcile now',
        command:
          'flux reconcile kustomization payments -n team-payments --context prod-eu',
      },
      {
        id: 'reconcile-with-source',
        label: 'Fetch its source, then reconcile',
        command:
          'flux reconcile kustomization payments --with-source -n team-payments --context prod-eu',
      },
      {
        id: 'suspend',
        label: 'Suspend',
        command:
          'flux suspend kustomization payments -n team-payments --context prod-eu',
      },
      {
        id: 'resume',
        label: 'Resume',
        command:
          'flux resume kustomization payments -n team-payments --context prod-eu',
      },
      {
        id: 'events',
        label: 'Recent events',
        command:
          'flux events --for Kustomization/payments -n team-payments --context prod-eu',
      },
      {
        id: 'tree',
        label: 'What it applied',
        command:
          'flux tree kustomization payments -n team-payments --context prod-eu',
      },
      {
        id: 'trace',
        label: 'Which Flux object applied it',
        command:
          'flux trace payments --kind=Kustomization --api-version=kustomize.toolkit.fluxcd.io/v1 -n team-payments --context prod-eu',
      },
      {
        id: 'logs',
        label: 'Controller logs about it',
        command:
          'flux logs --flux-namespace=flux-system --kind=Kustomization --name=payments -n team-payments --context prod-eu',
      },
      {
        id: 'kubectl-get',
        label: 'The full object',
        command:
          'kubectl get kustomizations.kustomize.toolkit.fluxcd.io payments -n team-payments --context prod-eu -o yaml',
      },
    ]);
  });

  it('offers a forced reconcile of HelmReleases', () => {
    expect(byId('HelmRelease')).toMatchObject({
      get: 'flux get helmrelease payments -n team-payments --context prod-eu',
      'reconcile-with-source':
        'flux reconcile helmrelease payments --with-source -n team-payments --context prod-eu',
      'reconcile-force':
        'flux reconcile helmrelease payments --force -n team-payments --context prod-eu',
    });
  });

  it.each<[FluxKind, string]>([
    ['GitRepository', 'source git'],
    ['OCIRepository', 'source oci'],
    ['HelmRepository', 'source helm'],
    ['HelmChart', 'source chart'],
    ['Bucket', 'source bucket'],
    ['ImageRepository', 'image repository'],
    ['ImagePolicy', 'image policy'],
    ['ImageUpdateAutomation', 'image update'],
    ['Receiver', 'receiver'],
  ])(
    'uses the CLI words for a %s (%s), which it can reconcile, suspend and resume',
    (kind, words) => {
      const commands = byId(kind);
      expect(commands.get).toBe(
        `flux get ${words} payments -n team-payments --context prod-eu`,
      );
      expect(commands.reconcile).toBe(
        `flux reconcile ${words} payments -n team-payments --context prod-eu`,
      );
      expect(commands.suspend).toBe(
        `flux suspend ${words} payments -n team-payments --context prod-eu`,
      );
      expect(commands.resume).toBe(
        `flux resume ${words} payments -n team-payments --context prod-eu`,
      );
      expect(commands['reconcile-force']).toBeUndefined();
    },
  );

  it('gives --with-source only where the CLI has it', () => {
    const withSource = FLUX_KINDS.filter(
      kind => byId(kind)['reconcile-with-source'],
    );
    expect(withSource).toEqual(['HelmChart', 'Kustomization', 'HelmRelease']);
  });

  it.each<[FluxKind, string]>([
    ['Alert', 'alert'],
    ['Provider', 'alert-provider'],
  ])(
    'does not offer to reconcile a %s (no status since v1beta3) but suspends it',
    (kind, words) => {
      const commands = byId(kind);
      expect(commands.reconcile).toBeUndefined();
      expect(commands.suspend).toBe(
        `flux suspend ${words} payments -n team-payments --context prod-eu`,
      );
    },
  );

  it.each<[FluxKind, string]>([
    [
      'ExternalArtifact',
      'flux get source external payments -n team-payments --context prod-eu',
    ],
    [
      'ArtifactGenerator',
      'flux get artifact generator payments -n team-payments --context prod-eu',
    ],
  ])('only shows a %s', (kind, get) => {
    expect(Object.keys(byId(kind))).toEqual(['get', 'events', 'kubectl-get']);
    expect(byId(kind).get).toBe(get);
  });

  it('falls back to kubectl and flux trace for the Flux Operator kinds', () => {
    expect(
      fluxCliCommands(ref('FluxInstance', 'flux', 'flux-system'), {
        apiVersion: 'fluxcd.controlplane.io/v1',
      }).map(c => c.command),
    ).toEqual([
      'flux trace flux --kind=FluxInstance --api-version=fluxcd.controlplane.io/v1 -n flux-system --context prod-eu',
      'kubectl get fluxinstances.fluxcd.controlplane.io flux -n flux-system --context prod-eu -o yaml',
    ]);
  });

  it('uses a configured kubeconfig context and quotes what the shell would split', () => {
    const commands = fluxCliCommands(
      {
        cluster: 'prod eu',
        namespace: 'team-payments',
        kind: 'GitRepository',
        name: 'payments',
      },
      {},
    );
    expect(commands[0].command).toBe(
      "flux get source git payments -n team-payments --context 'prod eu'",
    );
    expect(
      byId('GitRepository', {
        context: 'arn:aws:eks:eu-west-1:123:cluster/prod',
      }).get,
    ).toBe(
      'flux get source git payments -n team-payments --context arn:aws:eks:eu-west-1:123:cluster/prod',
    );
  });
});

describe('shellQuote', () => {
  it.each([
    ['payments', 'payments'],
    ['prod eu', "'prod eu'"],
    ["it's", "'it'\\''s'"],
    ['$(rm -rf /)', "'$(rm -rf /)'"],
    ['', "''"],
  ])('quotes %j as %s', (word, quoted) => {
    expect(shellQuote(word)).toBe(quoted);
  });
});
