/**
 * The changes that carry out a sharding plan (rules §13): the label each object gets, the shard controllers to add
 * (a FluxInstance `spec.sharding` patch, or for bootstrap installs the files of Flux's sharding guide), the
 * kubectl commands in the order to run them, and the labels as a kustomize patch file.
 */
import type { ShardControllers, ShardLabelChange } from '../capacityApi';
import type { FluxObjectRecord } from '../record';
import {
  FLUX_KIND_GROUP,
  FLUX_KIND_PLURAL,
  LABELS,
  MAIN_SHARD,
} from '../vocabulary';
import { SHARDED_COMPONENTS } from './advice';
import {
  bootstrapShardFiles,
  fluxInstanceShardingPatch,
} from './shardControllers';

/** What {@link planChanges} needs. */
export interface PlanChangesInput {
  cluster: string;
  instance: string;
  operatorManaged: boolean;
  fluxInstance: string;
  /** The planned objects, sorted. */
  objects: readonly FluxObjectRecord[];
  /** Index of each object → the shard the plan puts it on. */
  targetOf: ReadonlyMap<number, string>;
  /** Keys of HelmCharts helm-controller generates (they take their labels from their HelmRelease). */
  generatedHelmCharts: ReadonlySet<string>;
  newShards: readonly string[];
  allShards: readonly string[];
  /** Whether every main controller runs with a selector already. */
  mainSelectorSet: boolean;
}

/** The changes of a plan. */
export interface PlanChanges {
  labelChanges: ShardLabelChange[];
  controllers?: ShardControllers;
  commands: string[];
  kustomizePatch: string;
  notes: string[];
}

/** Names per kubectl command, so that a command stays a readable length. */
const NAMES_PER_COMMAND = 50;

interface Batch {
  to: string;
  record: FluxObjectRecord;
  /** HelmReleases with a chart template: their generated HelmChart takes the label from `spec.chart.metadata`. */
  chartTemplate: boolean;
  names: string[];
}

function resourceOf(record: FluxObjectRecord): string {
  return `${FLUX_KIND_PLURAL[record.kind]}.${FLUX_KIND_GROUP[record.kind]}`;
}

function chunks<T>(list: readonly T[], size: number): T[][] {
  const result: T[][] = [];
  for (let i = 0; i < list.length; i += size)
    result.push(list.slice(i, i + size));
  return result;
}

function escapeRegex(name: string): string {
  return name.replace(/[.]/g, '\\.');
}

function labelValue(to: string): string {
  return to === MAIN_SHARD ? 'null' : JSON.stringify(to);
}

function kustomizePatchOf(
  batches: readonly Batch[],
  input: PlanChangesInput,
): string {
  const lines = [
    `# Flux Fleet sharding plan for instance ${input.instance} in cluster ${input.cluster}.`,
    '# Add these patches to the kustomization.yaml that builds the objects: a patch changes only the objects of its',
    '# own build. A label value of null removes the label (the object goes back to the main controllers).',
  ];
  if (batches.length === 0) return [...lines, 'patches: []', ''].join('\n');
  lines.push('patches:');
  for (const b of batches) {
    const [group, version] = b.record.apiVersion.split('/');
    lines.push(
      '  - target:',
      `      group: ${group}`,
      `      version: ${version}`,
      `      kind: ${b.record.kind}`,
      `      namespace: ${b.record.namespace}`,
      `      name: ^(${b.names.map(escapeRegex).join('|')})$`,
      '    patch: |-',
      `      apiVersion: ${b.record.apiVersion}`,
      `      kind: ${b.record.kind}`,
      '      metadata:',
      '        name: any',
      '        labels:',
      `          ${LABELS.shardKey}: ${labelValue(b.to)}`,
    );
    if (b.chartTemplate) {
      lines.push(
        '      spec:',
        '        chart:',
        '          metadata:',
        '            labels:',
        `              ${LABELS.shardKey}: ${labelValue(b.to)}`,
      );
    }
  }
  lines.push('');
  return lines.join('\n');
}

function labelCommands(batches: readonly Batch[]): string[] {
  const commands: string[] = [];
  for (const b of batches) {
    const resource = resourceOf(b.record);
    const label =
      b.to === MAIN_SHARD
        ? `${LABELS.shardKey}-`
        : `${LABELS.shardKey}=${b.to}`;
    const overwrite = b.to === MAIN_SHARD ? '' : ' --overwrite';
    for (const names of chunks(b.names, NAMES_PER_COMMAND)) {
      commands.push(
        `kubectl label${overwrite} -n ${
          b.record.namespace
        } ${resource} ${names.join(' ')} ${label}`,
      );
    }
    if (b.chartTemplate) {
      const patch = JSON.stringify({
        spec: {
          chart: {
            metadata: {
              labels: { [LABELS.shardKey]: b.to === MAIN_SHARD ? null : b.to },
            },
          },
        },
      });
      for (const name of b.names) {
        commands.push(
          `kubectl patch -n ${b.record.namespace} ${resource} ${name} --type=merge -p '${patch}'`,
        );
      }
    }
  }
  return commands;
}

/** The changes of a plan, deterministic for a given input. */
export function planChanges(input: PlanChangesInput): PlanChanges {
  const labelChanges: ShardLabelChange[] = [];
  const batches = new Map<string, Batch>();
  let generatedSkipped = 0;
  input.objects.forEach((o, i) => {
    const from = o.labels[LABELS.shardKey] ?? MAIN_SHARD;
    const to = input.targetOf.get(i) ?? from;
    if (from === to) return;
    if (input.generatedHelmCharts.has(o.key)) {
      generatedSkipped++;
      return;
    }
    labelChanges.push({
      object: {
        cluster: o.cluster,
        namespace: o.namespace,
        kind: o.kind,
        name: o.name,
      },
      from,
      to,
    });
    const chartTemplate = o.kind === 'HelmRelease' && o.chart !== undefined;
    const key = [to, o.kind, o.apiVersion, o.namespace, chartTemplate].join(
      '\n',
    );
    const batch = batches.get(key);
    if (batch) batch.names.push(o.name);
    else batches.set(key, { to, record: o, chartTemplate, names: [o.name] });
  });
  // Objects are sorted namespace, kind (sources first), name; batches keep that order per shard, shards in plan order.
  const shardOrder = [MAIN_SHARD, ...input.allShards];
  const ordered = [...batches.values()].sort(
    (a, b) => shardOrder.indexOf(a.to) - shardOrder.indexOf(b.to),
  );

  const notes: string[] = [];
  const commands: string[] = [];
  let controllers: ShardControllers | undefined;
  if (input.newShards.length > 0) {
    if (input.operatorManaged) {
      controllers = {
        kind: 'flux-instance',
        patch: fluxInstanceShardingPatch(
          input.instance,
          input.fluxInstance,
          input.allShards,
        ),
      };
      const patch = JSON.stringify({
        spec: { sharding: { key: LABELS.shardKey, shards: input.allShards } },
      });
      commands.push(
        `kubectl patch -n ${input.instance} fluxinstances.fluxcd.controlplane.io ${input.fluxInstance} --type=merge -p '${patch}'`,
      );
    } else {
      controllers = {
        kind: 'bootstrap',
        files: bootstrapShardFiles(
          input.instance,
          input.newShards,
          input.allShards,
          !input.mainSelectorSet,
        ),
      };
      commands.push(
        '# First commit the files of `controllers` to the bootstrap repository and let Flux apply them.',
      );
      notes.push(
        "The shard controllers start from gotk-components.yaml: give them the same patches as the main controllers (--concurrent, limits) in each shard's kustomization.yaml.",
      );
    }
    const deployments = input.newShards.flatMap(shard =>
      SHARDED_COMPONENTS.map(c => `deployment/${c}-${shard}`),
    );
    commands.push(
      `kubectl wait -n ${
        input.instance
      } --for=condition=Available --timeout=5m ${deployments.join(' ')}`,
    );
  }
  commands.push(...labelCommands(ordered));
  if (generatedSkipped > 0) {
    notes.push(
      `${generatedSkipped} generated HelmChart${
        generatedSkipped === 1 ? '' : 's'
      } take${generatedSkipped === 1 ? 's' : ''} the shard label from ${
        generatedSkipped === 1 ? 'its' : 'their'
      } HelmRelease's spec.chart.metadata.labels, which the plan sets.`,
    );
  }
  if (labelChanges.length > 0) {
    notes.push(
      'Objects applied from Git get back what Git says on their next apply (kustomize-controller takes back fields changed with kubectl): commit the kustomize patch, or the labels, for those; the kubectl commands are for objects created outside Git.',
    );
  }
  return {
    labelChanges,
    ...(controllers ? { controllers } : {}),
    commands,
    kustomizePatch: kustomizePatchOf(ordered, input),
    notes,
  };
}
