/**
 * The `flux` CLI commands a person copies for a Flux object (and `kubectl` where `flux` has none), with the CLI's
 * own words for each kind. What each `flux` command supports follows the CLI's sources (fluxcd/flux2
 * `cmd/flux`): e.g. Alerts and Providers cannot be reconciled (they have no status since v1beta3), and only
 * Kustomization, HelmRelease and HelmChart take `--with-source`.
 */
import type { FluxObjectRef } from './types';
import { FLUX_KIND_GROUP, FLUX_KIND_PLURAL, FluxKind } from './vocabulary';

/** What a command does. */
export type CliCommandId =
  | 'get'
  | 'reconcile'
  | 'reconcile-with-source'
  | 'reconcile-force'
  | 'suspend'
  | 'resume'
  | 'events'
  | 'tree'
  | 'trace'
  | 'logs'
  | 'kubectl-get';

/** One command a person can paste into a terminal, with what it does. */
export interface CliCommand {
  id: CliCommandId;
  label: string;
  command: string;
}

/** The words the `flux` CLI uses for each kind it knows (`flux get <words> <name>`). */
export const FLUX_CLI_KIND: Readonly<Partial<Record<FluxKind, string>>> = {
  Kustomization: 'kustomization',
  HelmRelease: 'helmrelease',
  GitRepository: 'source git',
  OCIRepository: 'source oci',
  HelmRepository: 'source helm',
  HelmChart: 'source chart',
  Bucket: 'source bucket',
  ExternalArtifact: 'source external',
  ImageRepository: 'image repository',
  ImagePolicy: 'image policy',
  ImageUpdateAutomation: 'image update',
  Alert: 'alert',
  Provider: 'alert-provider',
  Receiver: 'receiver',
  ArtifactGenerator: 'artifact generator',
};

const RECONCILABLE: ReadonlySet<FluxKind> = new Set<FluxKind>([
  'Kustomization',
  'HelmRelease',
  'GitRepository',
  'OCIRepository',
  'HelmRepository',
  'HelmChart',
  'Bucket',
  'ImageRepository',
  'ImagePolicy',
  'ImageUpdateAutomation',
  'Receiver',
]);

const WITH_SOURCE: ReadonlySet<FluxKind> = new Set<FluxKind>([
  'Kustomization',
  'HelmRelease',
  'HelmChart',
]);

const SUSPENDABLE: ReadonlySet<FluxKind> = new Set<FluxKind>([
  ...RECONCILABLE,
  'Alert',
  'Provider',
]);

/** Quotes a word for a POSIX shell when it holds anything but safe characters. */
export function shellQuote(word: string): string {
  if (/^[A-Za-z0-9_./:@%+=,-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** Options of {@link fluxCliCommands}. */
export interface FluxCliOptions {
  /** The kubeconfig context of the object's cluster; default: the cluster's name. */
  context?: string;
  /** The API version the object was read at, for `flux trace`. */
  apiVersion?: string;
  /** The namespace of the instance that reconciles it, for `flux logs`. */
  instance?: string | null;
}

/**
 * The commands for one object, in the order a person needs them: see its state, reconcile it (with its source,
 * forced), suspend and resume it, its events, what it applied, where it came from, its controller's logs, and the
 * full object with kubectl. Only commands the CLI supports for its kind are given.
 */
export function fluxCliCommands(
  ref: FluxObjectRef,
  options: FluxCliOptions = {},
): CliCommand[] {
  const q = shellQuote;
  const scope = `-n ${q(ref.namespace)} --context ${q(
    options.context ?? ref.cluster,
  )}`;
  const name = q(ref.name);
  const words = FLUX_CLI_KIND[ref.kind];
  const commands: CliCommand[] = [];
  const add = (id: CliCommandId, label: string, command: string) =>
    commands.push({ id, label, command });

  if (words) {
    add('get', 'Show its state', `flux get ${words} ${name} ${scope}`);
    if (RECONCILABLE.has(ref.kind)) {
      add(
        'reconcile',
        'Reconcile now',
        `flux reconcile ${words} ${name} ${scope}`,
      );
      if (WITH_SOURCE.has(ref.kind)) {
        add(
          'reconcile-with-source',
          'Fetch its source, then reconcile',
          `flux reconcile ${words} ${name} --with-source ${scope}`,
        );
      }
      if (ref.kind === 'HelmRelease') {
        add(
          'reconcile-force',
          'Force a one-off install or upgrade',
          `flux reconcile ${words} ${name} --force ${scope}`,
        );
      }
    }
    if (SUSPENDABLE.has(ref.kind)) {
      add('suspend', 'Suspend', `flux suspend ${words} ${name} ${scope}`);
      add('resume', 'Resume', `flux resume ${words} ${name} ${scope}`);
    }
    add(
      'events',
      'Recent events',
      `flux events --for ${q(`${ref.kind}/${ref.name}`)} ${scope}`,
    );
    if (ref.kind === 'Kustomization') {
      add(
        'tree',
        'What it applied',
        `flux tree kustomization ${name} ${scope}`,
      );
    }
  }
  if (options.apiVersion) {
    add(
      'trace',
      'Which Flux object applied it',
      `flux trace ${name} --kind=${ref.kind} --api-version=${q(
        options.apiVersion,
      )} ${scope}`,
    );
  }
  if (words && options.instance) {
    add(
      'logs',
      'Controller logs about it',
      `flux logs --flux-namespace=${q(options.instance)} --kind=${
        ref.kind
      } --name=${name} ${scope}`,
    );
  }
  add(
    'kubectl-get',
    'The full object',
    `kubectl get ${FLUX_KIND_PLURAL[ref.kind]}.${
      FLUX_KIND_GROUP[ref.kind]
    } ${name} ${scope} -o yaml`,
  );
  return commands;
}
