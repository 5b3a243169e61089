// TODO(common): use fluxCli.ts (fluxCliCommands) from @flux-fleet/plugin-flux-fleet-common once it lands, and delete
// this file.
import {
  FLUX_KIND_GROUP,
  FLUX_KIND_PLURAL,
  FluxKind,
  FluxObjectRef,
} from '@flux-fleet/plugin-flux-fleet-common';

/** One command a person can paste into a terminal, with what it does. */
export interface CliCommand {
  label: string;
  command: string;
}

/** How the `flux` CLI names each kind it handles (`flux get <noun>`, `flux reconcile <noun>`). */
const FLUX_CLI_NOUN: Partial<Record<FluxKind, string>> = {
  Kustomization: 'kustomization',
  HelmRelease: 'helmrelease',
  GitRepository: 'source git',
  OCIRepository: 'source oci',
  HelmRepository: 'source helm',
  HelmChart: 'source chart',
  Bucket: 'source bucket',
  Alert: 'alert',
  Provider: 'alert-provider',
  Receiver: 'receiver',
  ImageRepository: 'image repository',
  ImagePolicy: 'image policy',
  ImageUpdateAutomation: 'image update',
};

/** `flux get` nouns differ from the others for sources and images (plural groups). */
const FLUX_GET_NOUN: Partial<Record<FluxKind, string>> = {
  Kustomization: 'kustomizations',
  HelmRelease: 'helmreleases',
  GitRepository: 'sources git',
  OCIRepository: 'sources oci',
  HelmRepository: 'sources helm',
  HelmChart: 'sources chart',
  Bucket: 'sources bucket',
  Alert: 'alerts',
  Provider: 'alert-providers',
  Receiver: 'receivers',
  ImageRepository: 'images repository',
  ImagePolicy: 'images policy',
  ImageUpdateAutomation: 'images update',
};

/** Kinds `flux reconcile` does not handle (ImagePolicy follows its ImageRepository). */
const NOT_RECONCILABLE_BY_CLI: readonly FluxKind[] = ['ImagePolicy'];

/**
 * The `flux` (and, for kinds it does not know, `kubectl`) commands for one object, run against the kubeconfig
 * context named like the cluster; `instance` is the Flux namespace of the owning instance, for `flux logs`.
 */
export function fluxCliCommands(
  ref: FluxObjectRef,
  options: { instance?: string | null } = {},
): CliCommand[] {
  const scope = `-n ${ref.namespace} --context ${ref.cluster}`;
  const commands: CliCommand[] = [];
  const noun = FLUX_CLI_NOUN[ref.kind];
  if (noun) {
    commands.push({
      label: 'Show its state',
      command: `flux get ${FLUX_GET_NOUN[ref.kind]} ${ref.name} ${scope}`,
    });
    if (!NOT_RECONCILABLE_BY_CLI.includes(ref.kind)) {
      const withSource =
        ref.kind === 'Kustomization' || ref.kind === 'HelmRelease'
          ? ' --with-source'
          : '';
      commands.push({
        label: 'Reconcile now',
        command: `flux reconcile ${noun} ${ref.name} ${scope}${withSource}`,
      });
    }
    commands.push(
      {
        label: 'Suspend',
        command: `flux suspend ${noun} ${ref.name} ${scope}`,
      },
      { label: 'Resume', command: `flux resume ${noun} ${ref.name} ${scope}` },
      {
        label: 'Recent events',
        command: `flux events --for ${ref.kind}/${ref.name} ${scope}`,
      },
    );
    if (ref.kind === 'Kustomization' || ref.kind === 'HelmRelease') {
      commands.push({
        label: 'What it applied',
        command: `flux tree ${noun} ${ref.name} ${scope}`,
      });
    }
    if (options.instance) {
      commands.push({
        label: 'Controller logs about it',
        command: `flux logs --flux-namespace ${options.instance} --kind ${ref.kind} --name ${ref.name} ${scope}`,
      });
    }
  }
  commands.push({
    label: 'Full object',
    command: `kubectl get ${FLUX_KIND_PLURAL[ref.kind]}.${
      FLUX_KIND_GROUP[ref.kind]
    } ${ref.name} ${scope} -o yaml`,
  });
  return commands;
}
