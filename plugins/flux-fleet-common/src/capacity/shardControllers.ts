/**
 * The controllers a sharding plan adds (rules §13): for an operator-managed instance a FluxInstance `spec.sharding`
 * patch; for a bootstrap install, per new shard a kustomization that copies source-, kustomize- and helm-controller
 * from `gotk-components.yaml` as Flux's sharding guide does, and the main controllers' `!sharding.fluxcd.io/key`.
 */
import { LABELS } from '../vocabulary';
import { SHARDED_COMPONENTS } from './advice';

/** The FluxInstance patch that makes the operator run the given shards. */
export function fluxInstanceShardingPatch(
  namespace: string,
  name: string,
  shards: readonly string[],
): string {
  return [
    'apiVersion: fluxcd.controlplane.io/v1',
    'kind: FluxInstance',
    'metadata:',
    `  name: ${name}`,
    `  namespace: ${namespace}`,
    'spec:',
    '  sharding:',
    `    key: ${LABELS.shardKey}`,
    '    shards:',
    ...shards.map(s => `      - ${JSON.stringify(s)}`),
    '',
  ].join('\n');
}

const COMPONENTS = SHARDED_COMPONENTS.join('|');

function deletePatch(kind: string, name?: string): string[] {
  return [
    '  - target:',
    `      kind: ${kind}`,
    ...(name ? [`      name: ${name}`] : []),
    '    patch: |',
    '      $patch: delete',
    '      apiVersion: v1',
    '      kind: all',
    '      metadata:',
    '        name: all',
  ];
}

function jsonPatch(
  kind: string,
  name: string,
  ops: Array<[string, string, string]>,
): string[] {
  return [
    '  - target:',
    `      kind: ${kind}`,
    `      name: ${name}`,
    '    patch: |',
    ...ops.flatMap(([op, path, value]) => [
      `      - op: ${op}`,
      `        path: ${path}`,
      `        value: ${value}`,
    ]),
  ];
}

/** `flux-system/<shard>/kustomization.yaml`: the shard's copies of the sharded controllers. */
export function shardKustomization(namespace: string, shard: string): string {
  return [
    `# Shard ${shard} of the Flux instance in ${namespace}: source-, kustomize- and helm-controller reconciling only`,
    `# objects labelled ${LABELS.shardKey}=${shard}.`,
    'apiVersion: kustomize.config.k8s.io/v1beta1',
    'kind: Kustomization',
    'resources:',
    '  - ../gotk-components.yaml',
    `nameSuffix: ${JSON.stringify(`-${shard}`)}`,
    'commonAnnotations:',
    '  sharding.fluxcd.io/role: "shard"',
    'patches:',
    ...deletePatch(
      '(Namespace|CustomResourceDefinition|ClusterRole|ClusterRoleBinding|ServiceAccount|NetworkPolicy|ResourceQuota)',
    ),
    ...deletePatch(
      '(Deployment|Service)',
      '(notification-controller|webhook-receiver|image-reflector-controller|image-automation-controller|source-watcher)',
    ),
    ...jsonPatch('Deployment', `(${COMPONENTS})`, [
      [
        'add',
        '/spec/template/spec/containers/0/args/-',
        `--watch-label-selector=${LABELS.shardKey}=${shard}`,
      ],
    ]),
    ...SHARDED_COMPONENTS.flatMap(component =>
      jsonPatch('Deployment', component, [
        ['replace', '/spec/selector/matchLabels/app', `${component}-${shard}`],
        [
          'replace',
          '/spec/template/metadata/labels/app',
          `${component}-${shard}`,
        ],
      ]),
    ),
    ...jsonPatch('Deployment', 'source-controller', [
      [
        'add',
        '/spec/template/spec/containers/0/args/-',
        `--storage-adv-addr=source-controller-${shard}.$(RUNTIME_NAMESPACE).svc.cluster.local.`,
      ],
    ]),
    ...jsonPatch('Service', 'source-controller', [
      ['replace', '/spec/selector/app', `source-controller-${shard}`],
    ]),
    '',
  ].join('\n');
}

/** `flux-system/kustomization.yaml` with every shard and, when asked, the main controllers' selector. */
export function bootstrapKustomization(
  shards: readonly string[],
  mainSelector: boolean,
): string {
  return [
    'apiVersion: kustomize.config.k8s.io/v1beta1',
    'kind: Kustomization',
    'resources:',
    '  - gotk-components.yaml',
    '  - gotk-sync.yaml',
    ...shards.map(s => `  - ${s}`),
    ...(mainSelector
      ? [
          'patches:',
          '  # The main controllers leave labelled objects to their shard.',
          ...jsonPatch('Deployment', `(${COMPONENTS})`, [
            [
              'add',
              // Prepended: were the shards' copies matched too, their own selector (appended) still wins.
              '/spec/template/spec/containers/0/args/0',
              `--watch-label-selector=!${LABELS.shardKey}`,
            ],
          ]),
        ]
      : []),
    '',
  ].join('\n');
}

/** The files a bootstrap install adds for its new shards, by path under the bootstrap repository's cluster path. */
export function bootstrapShardFiles(
  namespace: string,
  newShards: readonly string[],
  allShards: readonly string[],
  mainSelector: boolean,
): Array<{ path: string; content: string }> {
  return [
    {
      path: 'flux-system/kustomization.yaml',
      content: bootstrapKustomization(allShards, mainSelector),
    },
    ...newShards.map(shard => ({
      path: `flux-system/${shard}/kustomization.yaml`,
      content: shardKustomization(namespace, shard),
    })),
  ];
}
