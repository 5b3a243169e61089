import type { ActionsRegistryService } from '@backstage/backend-plugin-api/alpha';
import { parseEntityRef, stringifyEntityRef } from '@backstage/catalog-model';
import { InputError } from '@backstage/errors';
import {
  fluxCliCommands,
  type EntityView,
  type FleetObject,
  type FleetObjectDetail,
} from '@flux-fleet/plugin-flux-fleet-common';
import { FleetApiClient, objectPath } from './FleetApiClient';
import {
  countBy,
  countsSchema,
  cut,
  DEFAULT_ITEMS,
  limitInput,
  objectLine,
  objectLineSchema,
  refKey,
  stateSchema,
  type Zod,
  registerAction,
} from './shapes';

/** How many clusters the summary sentence names where the entity is not deployed. */
const NAMED_CLUSTERS = 5;

function rootCauseSchema(z: Zod) {
  return z
    .object({
      key: z.string(),
      depth: z.number().describe('1 = a direct dependsOn of the object, 2 = a dependency of that one, …'),
      state: stateSchema(z).nullable().describe('Its reconcile state; null when the dependency does not exist.'),
      reason: z.string().optional(),
      message: z.string().optional(),
    })
    .describe('For a blocked object: the deepest dependency through dependsOn that is not ready, the real why.');
}

/** `get-deploy-status`: where a catalog entity's Flux objects stand, per cluster. */
export function registerDeployStatusAction(registry: ActionsRegistryService, api: FleetApiClient) {
  registerAction(registry, {
    name: 'get-deploy-status',
    title: 'Deploy status of a catalog entity',
    description:
      'Answers "is my service deployed, and where not, why?" for one catalog entity (a Component such as ' +
      'checkout): for every cluster holding its Flux objects (Kustomizations, HelmReleases, their sources), each ' +
      "object's reconcile state, the revision it applied, Flux's reason and message, for a blocked object the " +
      'root cause through dependsOn, and a `flux` command to run. Read from the fleet index, no cluster is ' +
      'called. Use explain-flux-object for the full why of one object, list-flux-objects for many services.',
    attributes: { readOnly: true, idempotent: true, destructive: false },
    schema: {
      input: z =>
        z.object({
          entityRef: z
            .string()
            .min(1)
            .describe(
              'The catalog entity: component:default/checkout, default/checkout or just checkout ' +
                '(kind Component and namespace default when left out).',
            ),
          limit: limitInput(z, 'objects'),
        }),
      output: z =>
        z.object({
          entityRef: z.string(),
          summary: z.string().describe('The answer in one or two sentences.'),
          objectCount: z.number(),
          countsByState: countsSchema(z, 'Its Flux objects per reconcile state, every cluster.'),
          shownObjects: z.number().describe('How many objects are listed in full below (not ready ones first).'),
          clusters: z.array(
            z.object({
              cluster: z.string(),
              clusterStatus: z
                .string()
                .optional()
                .describe('How Flux Fleet follows the cluster: synced, syncing, restored, unreachable, unauthorized.'),
              deployed: z.boolean().describe('True when every one of its objects on this cluster is ready.'),
              revisions: z.array(z.string()).describe('The distinct revisions its reconcilers applied there.'),
              objectCount: z.number(),
              countsByState: countsSchema(z, 'Its objects on this cluster per reconcile state.'),
              objects: z.array(
                objectLineSchema(z).extend({
                  rootCause: rootCauseSchema(z).optional(),
                  command: z
                    .string()
                    .describe('A `flux` command to run: its events when not ready, `flux get` when ready.'),
                }),
              ),
            }),
          ),
          clustersNotSynced: z
            .array(z.string())
            .describe('Clusters not synced yet or unreachable: objects there may be missing or out of date.'),
        }),
    },
    action: async ({ input, credentials }) => {
      let ref;
      try {
        ref = parseEntityRef(input.entityRef, { defaultKind: 'component', defaultNamespace: 'default' });
      } catch (error) {
        throw new InputError(`'${input.entityRef}' is not an entity ref: ${(error as Error).message}`);
      }
      const path = `/entity/${[ref.kind, ref.namespace, ref.name].map(encodeURIComponent).join('/')}`;
      const view = await api.get<EntityView>(path, {}, credentials);
      const limit = input.limit ?? DEFAULT_ITEMS;
      // not ready objects first: they are the question
      const shown = [
        ...view.objects.filter(o => o.state.state !== 'ready'),
        ...view.objects.filter(o => o.state.state === 'ready'),
      ].slice(0, limit);
      const rootCauses = new Map<string, FleetObjectDetail['rootCause']>();
      for (const o of shown.filter(x => x.state.state === 'blocked')) {
        const detail = await api.get<FleetObjectDetail>(objectPath(o.ref), {}, credentials);
        rootCauses.set(o.key, detail.rootCause);
      }
      const byCluster = new Map<string, FleetObject[]>();
      for (const o of view.objects) {
        byCluster.set(o.ref.cluster, [...(byCluster.get(o.ref.cluster) ?? []), o]);
      }
      const clusters = [...byCluster.entries()]
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([cluster, objects]) => ({
          cluster,
          clusterStatus: view.clusters.find(c => c.name === cluster)?.status,
          deployed: objects.every(o => o.state.state === 'ready'),
          revisions: [
            ...new Set(objects.flatMap(o => (o.sourceRef && o.state.revision ? [o.state.revision] : []))),
          ],
          objectCount: objects.length,
          countsByState: countBy(objects, o => o.state.state),
          objects: shown
            .filter(o => o.ref.cluster === cluster)
            .map(o => {
              const rootCause = rootCauses.get(o.key);
              return {
                ...objectLine(o),
                rootCause: rootCause && {
                  key: refKey(rootCause.ref),
                  depth: rootCause.depth,
                  state: rootCause.state,
                  reason: rootCause.reason,
                  message: cut(rootCause.message),
                },
                command: command(o),
              };
            }),
        }));
      const entityRef = view.entityRef ?? stringifyEntityRef(ref);
      return {
        output: {
          entityRef,
          summary: summary(entityRef, clusters, view, rootCauses),
          objectCount: view.objects.length,
          countsByState: countBy(view.objects, o => o.state.state),
          shownObjects: shown.length,
          clusters,
          clustersNotSynced: view.clusters.filter(c => !c.synced).map(c => c.name),
        },
      };
    },
  });
}

/** The one `flux` command that helps most: why it is not ready (its events), or its state. */
function command(o: FleetObject): string {
  const commands = fluxCliCommands(o.ref, { apiVersion: o.apiVersion, instance: o.owner.instance });
  const want = o.state.state === 'ready' ? 'get' : 'events';
  return (commands.find(c => c.id === want) ?? commands[commands.length - 1]).command;
}

function summary(
  entityRef: string,
  clusters: Array<{ cluster: string; deployed: boolean; objects: ReturnType<typeof objectLine>[] }>,
  view: EntityView,
  rootCauses: ReadonlyMap<string, FleetObjectDetail['rootCause']>,
): string {
  if (clusters.length === 0) {
    const how = view.link.kubernetesId
      ? `backstage.io/kubernetes-id: ${view.link.kubernetesId}`
      : `backstage.io/kubernetes-label-selector: ${view.link.labelSelector ?? '(none)'}`;
    return `${entityRef} has no Flux objects in the fleet index (linked by ${how}).`;
  }
  const deployed = clusters.filter(c => c.deployed);
  const notDeployed = clusters.filter(c => !c.deployed);
  let text = `${entityRef} is deployed (every Flux object ready) on ${deployed.length} of ${clusters.length} clusters.`;
  if (notDeployed.length > 0) {
    const named = notDeployed.slice(0, NAMED_CLUSTERS).map(c => {
      const worst = c.objects.find(o => o.state !== 'ready');
      if (!worst) return c.cluster;
      const root = rootCauses.get(worst.key);
      const cause = root
        ? `, root cause ${root.ref.kind} ${root.ref.namespace}/${root.ref.name} ${root.state ?? 'missing'}` +
          `${root.reason ? `: ${root.reason}` : ''}`
        : '';
      return `${c.cluster} (${worst.kind} ${worst.namespace}/${worst.name} ${worst.state}${worst.reason ? `: ${worst.reason}` : ''}${cause})`;
    });
    const more = notDeployed.length > NAMED_CLUSTERS ? ` and ${notDeployed.length - NAMED_CLUSTERS} more` : '';
    text += ` Not on ${named.join(', ')}${more}.`;
  }
  return text;
}
