import { partialObjectMetadataJson } from '../api/partialObjectMetadata';
import { coreResourceType } from '../api/resourceTypes';
import { BODY_METADATA_START, ClusterStore } from './clusterStore';

const deployments = coreResourceType('Deployment');

function deployment(labels: Record<string, string>) {
  // metadata after spec, as a client may write it: the store puts it first, as kube-apiserver does
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    spec: { replicas: 2, template: { spec: { containers: [{ name: 'app', image: 'app:1' }] } } },
    metadata: { name: 'podinfo', namespace: 'apps', labels },
  };
}

describe('ClusterStore', () => {
  it('stores the metadata first, and a metadata-only answer takes it from the body unparsed', () => {
    const store = new ClusterStore(100);
    const stored = store.put(deployments, deployment({ app: 'podinfo' }));
    expect(stored.body.startsWith(BODY_METADATA_START)).toBe(true);
    const parsed = JSON.parse(stored.body);
    expect(Object.keys(parsed)).toEqual(['metadata', 'spec']);
    expect(parsed.metadata).toEqual({
      name: 'podinfo',
      namespace: 'apps',
      labels: { app: 'podinfo' },
      resourceVersion: String(stored.resourceVersion),
    });
    expect(stored.metadataLength).toBe(JSON.stringify(parsed.metadata).length);
    expect(JSON.parse(partialObjectMetadataJson(stored, 'meta.k8s.io/v1'))).toEqual({
      kind: 'PartialObjectMetadata',
      apiVersion: 'meta.k8s.io/v1',
      metadata: parsed.metadata,
    });
  });

  it('stores an object without metadata or without anything else', () => {
    const store = new ClusterStore(100);
    const bare = store.put(coreResourceType('Namespace'), { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'apps' } });
    expect(JSON.parse(bare.body)).toEqual({ metadata: { name: 'apps', resourceVersion: String(bare.resourceVersion) } });
    expect(JSON.parse(partialObjectMetadataJson(bare, 'meta.k8s.io/v1')).metadata.name).toBe('apps');
  });

  it('keeps metadata-only answers right after an edit before the load, with or without the metadata changed', () => {
    const store = new ClusterStore(100);
    store.put(deployments, deployment({ app: 'podinfo' }));
    store.editBeforeLoad(deployments, 'apps', 'podinfo', json => json.replace('"replicas":2', '"replicas":3'));
    const specEdited = store.get(deployments, 'apps', 'podinfo')!;
    expect(specEdited.metadataLength).toBeDefined();
    expect(JSON.parse(partialObjectMetadataJson(specEdited, 'meta.k8s.io/v1')).metadata.labels).toEqual({ app: 'podinfo' });

    store.editBeforeLoad(deployments, 'apps', 'podinfo', json => json.replace('"app":"podinfo"', '"app":"podinfo-v2"'));
    const labelEdited = store.get(deployments, 'apps', 'podinfo')!;
    expect(labelEdited.metadataLength).toBeUndefined();
    expect(JSON.parse(partialObjectMetadataJson(labelEdited, 'meta.k8s.io/v1')).metadata.labels).toEqual({
      app: 'podinfo-v2',
    });
  });
});
