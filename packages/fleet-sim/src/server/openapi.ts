/**
 * OpenAPI v3 documents, as kube-apiserver publishes them (`/openapi/v3` and one document per group-version):
 * operations tagged with `x-kubernetes-group-version-kind` and the query parameters they accept, so that kubectl
 * sees the server validates fields itself (`fieldValidation`) and can apply. Schemas are open
 * (`x-kubernetes-preserve-unknown-fields`): the simulator does not carry the Flux schemas.
 */
import { createHash } from 'node:crypto';
import { groupVersion, type ServedResource } from '../api/resourceTypes';

function gvPath(group: string, version: string): string {
  return group ? `apis/${group}/${version}` : `api/${version}`;
}

/** The schema name Kubernetes gives a kind, e.g. `io.fluxcd.toolkit.kustomize.v1.Kustomization`. */
function schemaName(group: string, version: string, kind: string): string {
  if (!group) return `io.k8s.api.core.${version}.${kind}`;
  if (group === 'apps') return `io.k8s.api.apps.${version}.${kind}`;
  return `${group.split('.').reverse().join('.')}.${version}.${kind}`;
}

function groupVersions(
  served: ServedResource[],
): Array<{ group: string; version: string }> {
  const seen = new Map<string, { group: string; version: string }>();
  for (const entry of served) {
    for (const version of entry.versions) {
      seen.set(`${entry.type.group}/${version}`, {
        group: entry.type.group,
        version,
      });
    }
  }
  return [...seen.values()];
}

/** The `/openapi/v3` index: one entry per group-version. */
export function openApiIndex(
  served: ServedResource[],
): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  for (const { group, version } of groupVersions(served)) {
    const path = gvPath(group, version);
    const hash = createHash('sha512')
      .update(path)
      .digest('hex')
      .slice(0, 128)
      .toUpperCase();
    paths[path] = { serverRelativeURL: `/openapi/v3/${path}?hash=${hash}` };
  }
  return { paths };
}

const QUERY = (name: string) => ({
  name,
  in: 'query',
  description: name,
  schema: { type: 'string', uniqueItems: true },
});

const JSON_CONTENT = (ref: string) => ({
  'application/json': { schema: { $ref: `#/components/schemas/${ref}` } },
});

/** The OpenAPI v3 document of one group-version, or undefined when it is not served. */
export function openApiDocument(
  served: ServedResource[],
  group: string,
  version: string,
  kubernetesVersion: string,
): Record<string, unknown> | undefined {
  const entries = served.filter(
    s => s.type.group === group && s.versions.includes(version),
  );
  if (entries.length === 0) return undefined;
  const paths: Record<string, unknown> = {};
  const schemas: Record<string, unknown> = {};
  const base = `/${gvPath(group, version)}`;
  for (const { type } of entries) {
    const gvk = { group, version, kind: type.kind };
    const name = schemaName(group, version, type.kind);
    schemas[name] = {
      type: 'object',
      description: `${type.kind} (${groupVersion(group, version)})`,
      'x-kubernetes-preserve-unknown-fields': true,
      'x-kubernetes-group-version-kind': [gvk],
    };
    schemas[`${name}List`] = {
      type: 'object',
      'x-kubernetes-preserve-unknown-fields': true,
      'x-kubernetes-group-version-kind': [{ ...gvk, kind: type.listKind }],
    };
    const operation = (
      action: string,
      extra: Record<string, unknown> = {},
    ) => ({
      tags: [group || 'core'],
      operationId: `${action}${type.kind}`,
      responses: { '200': { description: 'OK', content: JSON_CONTENT(name) } },
      'x-kubernetes-action': action,
      'x-kubernetes-group-version-kind': gvk,
      ...extra,
    });
    const writeParams = [
      QUERY('dryRun'),
      QUERY('fieldManager'),
      QUERY('fieldValidation'),
    ];
    const item = {
      get: operation('get'),
      put: operation('put', {
        parameters: writeParams,
        requestBody: { content: JSON_CONTENT(name) },
      }),
      patch: operation('patch', {
        parameters: [...writeParams, QUERY('force')],
        requestBody: {
          content: {
            'application/json-patch+json': { schema: { type: 'object' } },
            'application/merge-patch+json': { schema: { type: 'object' } },
            'application/apply-patch+yaml': { schema: { type: 'object' } },
          },
        },
      }),
      delete: operation('delete', { parameters: [QUERY('dryRun')] }),
      parameters: [
        {
          name: 'name',
          in: 'path',
          required: true,
          schema: { type: 'string', uniqueItems: true },
        },
        ...(type.namespaced
          ? [
              {
                name: 'namespace',
                in: 'path',
                required: true,
                schema: { type: 'string', uniqueItems: true },
              },
            ]
          : []),
      ],
    };
    const collection = {
      get: operation('list', {
        parameters: [
          'labelSelector',
          'fieldSelector',
          'limit',
          'continue',
          'resourceVersion',
          'watch',
        ].map(QUERY),
        responses: {
          '200': { description: 'OK', content: JSON_CONTENT(`${name}List`) },
        },
      }),
      post: operation('post', {
        parameters: writeParams,
        requestBody: { content: JSON_CONTENT(name) },
      }),
    };
    const prefix = type.namespaced
      ? `${base}/namespaces/{namespace}/${type.plural}`
      : `${base}/${type.plural}`;
    paths[prefix] = collection;
    paths[`${prefix}/{name}`] = item;
    if (type.statusSubresource) {
      paths[`${prefix}/{name}/status`] = {
        get: operation('get'),
        put: operation('put', {
          parameters: writeParams,
          requestBody: { content: JSON_CONTENT(name) },
        }),
        patch: operation('patch', {
          parameters: [...writeParams, QUERY('force')],
        }),
        parameters: item.parameters,
      };
    }
    if (type.namespaced) {
      paths[`${base}/${type.plural}`] = { get: operation('list') };
    }
  }
  return {
    openapi: '3.0.0',
    info: { title: 'Kubernetes', version: kubernetesVersion },
    paths,
    components: { schemas },
  };
}
