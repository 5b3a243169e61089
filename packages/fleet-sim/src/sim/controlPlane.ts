/**
 * The simulated Flux controllers of one cluster: which controller Deployments exist and with which flags, as
 * each real controller reads its own container args. Used to decide who reconciles an object that a client
 * created or relabelled (the generator places its own objects by construction; a test checks both agree).
 */
import type { FluxComponent } from '../api/fluxReleases';
import {
  matchesLabels,
  parseLabelSelector,
  type LabelSelector,
} from '../api/labelSelector';
import type { ControllerSpec, Placement } from '../fleet/model';
import { byFields } from '../ordering';

const COMPONENTS: readonly FluxComponent[] = [
  'source-controller',
  'kustomize-controller',
  'helm-controller',
  'notification-controller',
  'image-reflector-controller',
  'image-automation-controller',
  'source-watcher',
];

/** The controller component that reconciles each kind (docs/rules.md §3); undefined for operator kinds. */
export const KIND_CONTROLLER: Readonly<
  Record<string, FluxComponent | undefined>
> = {
  GitRepository: 'source-controller',
  OCIRepository: 'source-controller',
  HelmRepository: 'source-controller',
  HelmChart: 'source-controller',
  Bucket: 'source-controller',
  Kustomization: 'kustomize-controller',
  HelmRelease: 'helm-controller',
  Alert: 'notification-controller',
  Provider: 'notification-controller',
  Receiver: 'notification-controller',
  ImageRepository: 'image-reflector-controller',
  ImagePolicy: 'image-reflector-controller',
  ImageUpdateAutomation: 'image-automation-controller',
  ArtifactGenerator: 'source-watcher',
};

/** Kinds that are never orphan or contested: the Flux Operator's, and ExternalArtifact (rules §4). */
export const OPERATOR_KINDS: ReadonlySet<string> = new Set([
  'FluxInstance',
  'FluxReport',
  'ResourceSet',
  'ResourceSetInputProvider',
  'ExternalArtifact',
]);

function flag(args: string[], name: string): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === `--${name}`) {
      const next = args[i + 1];
      return next !== undefined && !next.startsWith('--') ? next : 'true';
    }
    if (arg.startsWith(`--${name}=`)) return arg.slice(name.length + 3);
  }
  return undefined;
}

/** The shard name a selector gives (rules §3). */
export function shardOfSelector(selector: string | undefined): string {
  if (selector === undefined || selector.trim() === '') return 'main';
  let parsed: LabelSelector;
  try {
    parsed = parseLabelSelector(selector);
  } catch {
    return selector.replace(/\s+/g, '');
  }
  if (parsed.length === 1) {
    const [req] = parsed;
    if (req.op === 'notExists') return 'main';
    if (req.op === 'equals') return req.value;
    if (req.op === 'in') return [...req.values].sort().join('+');
  }
  return selector.replace(/\s+/g, '');
}

/** Reads a controller from a Deployment, or undefined when it is not a Flux controller. */
export function controllerOfDeployment(
  deployment: any,
): ControllerSpec | undefined {
  const labels = deployment?.metadata?.labels ?? {};
  if (labels['app.kubernetes.io/part-of'] !== 'flux') return undefined;
  const name: string = deployment.metadata.name;
  const namespace: string = deployment.metadata.namespace;
  const component = (labels['app.kubernetes.io/component'] ??
    COMPONENTS.find(c => name === c || name.startsWith(`${c}-`))) as
    | FluxComponent
    | undefined;
  if (!component || !COMPONENTS.includes(component)) return undefined;
  const container = deployment.spec?.template?.spec?.containers?.[0];
  const args: string[] = Array.isArray(container?.args)
    ? container.args.map(String)
    : [];
  const selector = flag(args, 'watch-label-selector');
  const concurrent = Number(flag(args, 'concurrent'));
  const defaults: Record<string, number> = {
    'kustomize-controller': 4,
    'helm-controller': 4,
    'source-controller': 2,
  };
  return {
    instance: labels['app.kubernetes.io/instance'] ?? namespace,
    name,
    component,
    shard: shardOfSelector(selector),
    selector: selector === '' ? undefined : selector,
    watchAllNamespaces: flag(args, 'watch-all-namespaces') !== 'false',
    concurrent:
      Number.isFinite(concurrent) && concurrent > 0
        ? concurrent
        : defaults[component] ?? 4,
    defaultServiceAccount: flag(args, 'default-service-account'),
    noCrossNamespaceRefs: flag(args, 'no-cross-namespace-refs') === 'true',
    noRemoteBases: flag(args, 'no-remote-bases') === 'true',
    replicas:
      typeof deployment.spec?.replicas === 'number'
        ? deployment.spec.replicas
        : 1,
    operatorManaged: labels['app.kubernetes.io/managed-by'] === 'flux-operator',
    // the version label only: an image tag is the controller's own version, not Flux's
    ...(labels['app.kubernetes.io/version']
      ? { version: labels['app.kubernetes.io/version'] }
      : {}),
  };
}

/** The controllers of one cluster and who reconciles what. */
export class ControlPlane {
  private controllers: ControllerSpec[] = [];
  private readonly selectors = new Map<ControllerSpec, LabelSelector>();
  private instances = new Set<string>();

  constructor(controllers: ControllerSpec[]) {
    this.set(controllers);
  }

  /** Replaces the controllers (after a controller Deployment changed). */
  set(controllers: ControllerSpec[]): void {
    this.controllers = [...controllers].sort(
      byFields<ControllerSpec>('instance', 'name'),
    );
    this.selectors.clear();
    for (const c of this.controllers) {
      let selector: LabelSelector;
      try {
        selector = parseLabelSelector(c.selector);
      } catch {
        // A controller with a selector it cannot parse fails to start and watches nothing.
        selector = [{ key: 'flux-fleet.invalid/selector', op: 'exists' }];
      }
      this.selectors.set(c, selector);
    }
    this.instances = new Set(this.controllers.map(c => c.instance));
  }

  all(): readonly ControllerSpec[] {
    return this.controllers;
  }

  /** Who reconciles an object of a kind in a namespace with these labels (rules §4). */
  placementOf(
    kind: string,
    namespace: string,
    labels: Record<string, string> | undefined,
  ): Placement {
    if (OPERATOR_KINDS.has(kind)) {
      return {
        status: 'ok',
        controllers: [],
        operatorInstance: this.instances.has(namespace) ? namespace : null,
      };
    }
    const component = KIND_CONTROLLER[kind];
    const candidates = this.controllers.filter(
      c =>
        c.component === component &&
        (c.watchAllNamespaces || c.instance === namespace) &&
        matchesLabels(this.selectors.get(c)!, labels),
    );
    if (candidates.length === 0) return { status: 'orphan', controllers: [] };
    if (candidates.length === 1)
      return { status: 'ok', controllers: candidates };
    return { status: 'contested', controllers: candidates };
  }

  /** Whether exactly one running controller reconciles the object (it then answers requests). */
  static reconciles(placement: Placement, operatorPresent: boolean): boolean {
    if (placement.status !== 'ok') return false;
    if (placement.controllers.length === 0)
      return operatorPresent && placement.operatorInstance !== null;
    return placement.controllers[0].replicas > 0;
  }
}
