/**
 * The `malformed` fault: Flux objects no healthy cluster would hold (missing status and required fields,
 * unknown conditions, wrong types, huge messages), which a reader must survive and report. They are listed in
 * the truth under `malformed`, never under `objects`.
 */
import type { MalformedRecord } from '../fleet/model';
import type { SimulatedCluster } from './simulatedCluster';
import { uuid } from './simulatedCluster';

interface MalformedObject {
  kind: string;
  object: Record<string, any>;
  defect: string;
}

function meta(
  name: string,
  namespace: string,
  time: string,
): Record<string, unknown> {
  return {
    name,
    namespace,
    uid: uuid(),
    generation: 1,
    creationTimestamp: time,
    labels: { 'flux-fleet.io/fault': 'malformed' },
  };
}

/** The malformed objects the fault adds to a cluster. */
export function malformedObjects(namespace: string): MalformedObject[] {
  const time = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
  const huge = `health check failed: ${'timeout waiting for: [Deployment/team-x/api status: InProgress] '.repeat(
    20_000,
  )}`;
  return [
    {
      kind: 'Kustomization',
      defect:
        'no status, and none of the required spec fields (interval, prune, sourceRef)',
      object: {
        metadata: meta('malformed-missing-status', namespace, time),
        spec: {},
      },
    },
    {
      kind: 'GitRepository',
      defect:
        'unknown condition types, and a Ready status that is neither True, False nor Unknown',
      object: {
        metadata: meta('malformed-unknown-conditions', namespace, time),
        spec: { interval: '1m', url: 'https://git.example.com/broken.git' },
        status: {
          observedGeneration: 1,
          conditions: [
            {
              type: 'Frobnicated',
              status: 'Maybe',
              reason: 'Whatever',
              message: 'not a Flux condition',
              lastTransitionTime: time,
            },
            {
              type: 'Ready',
              status: 'Perhaps',
              reason: '',
              message: '',
              lastTransitionTime: 'yesterday',
            },
          ],
        },
      },
    },
    {
      kind: 'Kustomization',
      defect:
        'wrong types: conditions is a string, observedGeneration a string, dependsOn a string, interval a number',
      object: {
        metadata: meta('malformed-wrong-types', namespace, time),
        spec: {
          interval: 600,
          prune: 'yes',
          sourceRef: 'flux-system',
          dependsOn: 'infra',
        },
        status: {
          observedGeneration: 'seven',
          conditions: 'Ready',
          inventory: { entries: 'none' },
        },
      },
    },
    {
      kind: 'HelmRelease',
      defect: `a Ready message of ${Math.round(huge.length / 1024)} KiB`,
      object: {
        metadata: meta('malformed-huge-message', namespace, time),
        spec: {
          interval: '10m',
          chart: {
            spec: {
              chart: 'huge',
              sourceRef: { kind: 'HelmRepository', name: 'nowhere' },
            },
          },
        },
        status: {
          observedGeneration: 1,
          conditions: [
            {
              type: 'Ready',
              status: 'False',
              reason: 'HealthCheckFailed',
              message: huge,
              lastTransitionTime: time,
            },
          ],
        },
      },
    },
    {
      kind: 'HelmRelease',
      defect: 'conditions is an object, not a list',
      object: {
        metadata: meta('malformed-conditions-object', namespace, time),
        spec: {
          interval: '10m',
          chartRef: { kind: 'OCIRepository', name: 'nowhere' },
        },
        status: { observedGeneration: 1, conditions: { Ready: true } },
      },
    },
  ];
}

/** Adds or removes the malformed objects of a cluster. */
export function setMalformed(cluster: SimulatedCluster, on: boolean): void {
  if (on && cluster.malformed.length === 0) {
    const namespace = cluster.read('Namespace', '', 'flux-system')
      ? 'flux-system'
      : 'default';
    const added: MalformedRecord[] = [];
    for (const { kind, object, defect } of malformedObjects(namespace)) {
      const served = cluster.servedKind(kind);
      if (!served) continue;
      added.push({ kind, namespace, name: object.metadata.name, defect });
      cluster.malformed = added;
      cluster.store.put(served.type, {
        apiVersion: cluster.preferredApiVersion(kind),
        kind,
        ...object,
      });
    }
  } else if (!on) {
    for (const m of cluster.malformed) {
      const served = cluster.servedKind(m.kind);
      if (served) cluster.store.remove(served.type, m.namespace, m.name);
    }
    cluster.malformed = [];
  }
}
