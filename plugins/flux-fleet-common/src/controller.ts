/**
 * From a controller Deployment to a {@link FluxController} (rules §3): which controller it is, which instance
 * and shard it belongs to, and the flags that decide what it watches and how it enforces tenancy.
 */
import { parseLabelSelectorCached } from './labelSelector';
import { compareShardNames, compareText } from './order';
import { FieldReader, isJsonObject } from './readUnknown';
import type { FluxController } from './types';
import {
  CONTROLLER_COMPONENTS,
  ControllerComponent,
  DEFAULT_CONCURRENCY,
  LABELS,
  MAIN_SHARD,
} from './vocabulary';

/**
 * The part of an `apps/v1` Deployment this module reads, as plain JSON from the API. A local structural type
 * rather than the Kubernetes client's `V1Deployment`, so that the frontend bundle never pulls the client in.
 */
export interface DeploymentLike {
  metadata?: {
    name?: string;
    namespace?: string;
    labels?: Record<string, string>;
  };
  spec?: {
    replicas?: number;
    template?: {
      spec?: {
        containers?: Array<{
          name?: string;
          image?: string;
          command?: string[];
          args?: string[];
        }>;
      };
    };
  };
  status?: { readyReplicas?: number };
}

/** A controller, or why the Deployment is not one. */
export type ControllerResult =
  | { controller: FluxController; reason?: undefined }
  | { controller?: undefined; reason: string };

/**
 * Flags that pflag (the flag library of Flux's controllers) treats as booleans: they take a value only as
 * `--flag=value`; `--flag` alone means true, and a following word is not their value.
 */
const BOOLEAN_FLAGS: ReadonlySet<string> = new Set([
  'watch-all-namespaces',
  'no-cross-namespace-refs',
  'no-remote-bases',
  'enable-leader-election',
  'insecure-kubeconfig-tls',
  'insecure-kubeconfig-exec',
  'feature-gates-help',
  'log-dev-mode',
]);

/** Values Go's `strconv.ParseBool` accepts. */
const TRUE_WORDS = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);
const FALSE_WORDS = new Set(['0', 'f', 'F', 'FALSE', 'false', 'False']);

/**
 * Parses command-line flags the way pflag does for the flags Flux Fleet reads: `--flag=value`, `--flag value`
 * (non-boolean flags), `--flag` (booleans: `true`); the last occurrence wins; parsing stops at `--`. Words
 * that are not flags are skipped.
 */
export function parseControllerFlags(
  args: readonly string[],
): Map<string, string> {
  const flags = new Map<string, string>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--') break;
    if (!arg.startsWith('--') || arg.length === 2) continue;
    const body = arg.slice(2);
    const eq = body.indexOf('=');
    if (eq >= 0) {
      flags.set(body.slice(0, eq), body.slice(eq + 1));
      continue;
    }
    if (BOOLEAN_FLAGS.has(body)) {
      flags.set(body, 'true');
      continue;
    }
    const next = args[i + 1];
    if (next !== undefined && !next.startsWith('--')) {
      flags.set(body, next);
      i++;
    } else {
      // A non-boolean flag without a value makes the controller refuse to start; record it as empty.
      flags.set(body, '');
    }
  }
  return flags;
}

/** The component a Deployment runs: its component label, else its name minus a `-<shard>` suffix. */
function componentOf(
  name: string,
  labels: Readonly<Record<string, string>>,
): { component?: ControllerComponent; reason?: string } {
  const label = labels[LABELS.component];
  if (label !== undefined) {
    return (CONTROLLER_COMPONENTS as readonly string[]).includes(label)
      ? { component: label as ControllerComponent }
      : {
          reason: `its ${LABELS.component} label '${label}' is not a Flux controller`,
        };
  }
  const component = CONTROLLER_COMPONENTS.find(
    c => name === c || name.startsWith(`${c}-`),
  );
  return component
    ? { component }
    : {
        reason: `it has no ${LABELS.component} label and its name is not that of a Flux controller`,
      };
}

/**
 * The shard name of a controller from its selector (rules §3): `main` without a selector or with only `!key`
 * requirements; the value of a single `key=v`, `key==v` or `key in (v)`; the values of `key in (a,b)` sorted and
 * joined with `+`; otherwise the selector text without whitespace.
 */
export function shardNameOfSelector(selector: string | undefined): string {
  if (selector === undefined || selector.trim() === '') return MAIN_SHARD;
  const { selector: parsed } = parseLabelSelectorCached(selector);
  const asWritten = selector.replace(/\s+/g, '');
  if (!parsed) return asWritten;
  const { requirements } = parsed;
  if (
    requirements.length === 0 ||
    requirements.every(r => r.operator === 'doesNotExist')
  ) {
    return MAIN_SHARD;
  }
  if (requirements.length === 1) {
    const [r] = requirements;
    if (r.operator === 'equals' || r.operator === 'in') {
      // `in` values are already sorted and unique.
      return r.values.join('+');
    }
  }
  return asWritten;
}

/** The tag of an image reference (`ghcr.io/fluxcd/kustomize-controller:v1.8.3@sha256:…` → `v1.8.3`). */
export function imageTag(image: string): string | undefined {
  const withoutDigest = image.split('@')[0];
  const lastSlash = withoutDigest.lastIndexOf('/');
  const lastColon = withoutDigest.lastIndexOf(':');
  // A colon before the last slash belongs to a registry port, not a tag.
  if (lastColon <= lastSlash) return undefined;
  const tag = withoutDigest.slice(lastColon + 1);
  return tag === '' ? undefined : tag;
}

function readBoolean(
  flags: Map<string, string>,
  flag: string,
  fallback: boolean,
  problems: string[],
): boolean {
  const value = flags.get(flag);
  if (value === undefined) return fallback;
  if (TRUE_WORDS.has(value)) return true;
  if (FALSE_WORDS.has(value)) return false;
  problems.push(
    `--${flag}=${value} is not true or false (the controller would refuse to start); read as ${fallback}`,
  );
  return fallback;
}

/**
 * The Flux controller a Deployment runs, or why it is not one (rules §3). Takes the Deployment as plain JSON and
 * never throws: a Deployment that is not a controller gives a reason; odd flags give `problems` and their
 * defaults.
 */
export function controllerFromDeployment(
  cluster: string,
  deployment: unknown,
): ControllerResult {
  try {
    return readController(cluster, deployment);
  } catch (e) {
    // Unreachable by design (every read is checked); kept so that a bug here never stops a cluster's watch.
    return {
      reason: `cluster ${cluster}: could not read a Deployment: ${
        e instanceof Error ? e.message : String(e)
      }`,
    };
  }
}

function readController(
  cluster: string,
  deployment: unknown,
): ControllerResult {
  if (!isJsonObject(deployment)) {
    return {
      reason: `cluster ${cluster}: a Deployment should be an object, got ${
        deployment === null ? 'null' : typeof deployment
      }`,
    };
  }
  const problems: string[] = [];
  const root = new FieldReader(deployment, 'Deployment', problems);
  const metadata = root.object('metadata');
  const name = metadata.string('name');
  const namespace = metadata.string('namespace');
  if (!name || !namespace) {
    return {
      reason: `cluster ${cluster}: Deployment ${namespace ?? '?'}/${
        name ?? '?'
      } has no name or namespace`,
    };
  }
  const id = `Deployment ${namespace}/${name} in cluster ${cluster}`;
  const labels = metadata.stringMap('labels') ?? {};
  if (labels[LABELS.partOf] !== 'flux') {
    return {
      reason: `${id} is not a Flux controller: it is not labelled ${LABELS.partOf}=flux`,
    };
  }
  const { component, reason } = componentOf(name, labels);
  if (!component) {
    return { reason: `${id} is not a Flux controller: ${reason}` };
  }

  const spec = root.object('spec');
  const podSpec = spec.object('template').object('spec');
  const containers = podSpec.list('containers') ?? [];
  const first = podSpec.child(containers[0], '.containers[0]');
  const argList = first.list('args');
  const commandList = first.list('command');
  // Flux's manifests put flags in `args`; some installations put everything in `command` instead.
  const words = (
    argList && argList.length > 0 ? argList : commandList ?? []
  ).filter((w): w is string => typeof w === 'string');
  const flags = parseControllerFlags(words);

  const rawSelector = flags.get('watch-label-selector');
  const selector =
    rawSelector === undefined || rawSelector.trim() === ''
      ? undefined
      : rawSelector;
  const selectorError = selector
    ? parseLabelSelectorCached(selector).error
    : undefined;

  let concurrent = DEFAULT_CONCURRENCY[component];
  const concurrentFlag = flags.get('concurrent');
  if (concurrentFlag !== undefined) {
    const n = /^\d+$/.test(concurrentFlag) ? Number(concurrentFlag) : NaN;
    if (n >= 1) {
      concurrent = n;
    } else {
      problems.push(
        `--concurrent=${concurrentFlag} is not a positive whole number; read as the default ${concurrent}`,
      );
    }
  }

  const defaultServiceAccount =
    flags.get('default-service-account') || undefined;
  const image = first.string('image');
  // The version label is Flux's version; the image tag is the controller's own (rules §10).
  const version = labels[LABELS.version] || undefined;
  const imageVersion = image ? imageTag(image) : undefined;
  const replicas = spec.integer('replicas') ?? 1;
  const status = root.object('status');
  const readyReplicas = status.value
    ? status.integer('readyReplicas') ?? 0
    : undefined;

  const controller: FluxController = {
    cluster,
    // The instance is the namespace (rules §1); the app.kubernetes.io/instance label is not trusted for identity.
    instance: namespace,
    name,
    component,
    shard: shardNameOfSelector(selector),
    selector,
    watchAllNamespaces: readBoolean(
      flags,
      'watch-all-namespaces',
      true,
      problems,
    ),
    concurrent,
    defaultServiceAccount,
    noCrossNamespaceRefs: readBoolean(
      flags,
      'no-cross-namespace-refs',
      false,
      problems,
    ),
    noRemoteBases: readBoolean(flags, 'no-remote-bases', false, problems),
    version,
    imageVersion,
    operatorManaged: labels[LABELS.managedBy] === 'flux-operator',
    replicas,
    readyReplicas,
  };
  if (selectorError) {
    controller.selectorError = selectorError;
    problems.push(
      `--watch-label-selector does not parse, so the controller cannot start and watches nothing: ${selectorError}`,
    );
  }
  if (problems.length > 0) {
    controller.problems = problems.map(p => `${id}: ${p}`);
  }
  return { controller };
}

/** Controllers of a cluster in a stable order: instance, shard (main first), component, name. */
export function compareControllers(
  a: FluxController,
  b: FluxController,
): number {
  return (
    compareText(a.instance, b.instance) ||
    compareShardNames(a.shard, b.shard) ||
    compareText(a.component, b.component) ||
    compareText(a.name, b.name)
  );
}
