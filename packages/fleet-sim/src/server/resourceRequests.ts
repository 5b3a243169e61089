/**
 * The verbs on resources, as kube-apiserver implements them for the simulated kinds: get, list (label and
 * field selectors, `limit` + `continue`, tables), create, update, patch (JSON merge, JSON patch, apply; strategic
 * merge only for built-in kinds), delete (finalizers respected), and the `status` subresource. Metadata follows
 * the server's rules: uid and creationTimestamp are the server's, `generation` bumps on spec changes only,
 * `resourceVersion` is one monotonic counter per cluster, a write that changes nothing stores nothing.
 */
import { randomBytes } from 'node:crypto';
import {
  alreadyExists,
  ApiError,
  badRequest,
  conflict,
  invalid,
  notFound,
} from '../api/apiError';
import {
  matchesFields,
  needsBody,
  parseFieldSelector,
} from '../api/fieldSelector';
import {
  matchesLabels,
  parseLabelSelector,
  SelectorParseError,
} from '../api/labelSelector';
import { applyJsonPatch, applyMergePatch } from '../api/patch';
import {
  coreResourceType,
  groupVersion,
  type ResourceType,
} from '../api/resourceTypes';
import { tableColumns, tableRow, type IncludeObject } from '../api/table';
import {
  partialMetadataContentType,
  partialObjectMetadataJson,
} from '../api/partialObjectMetadata';
import { JsonText } from './jsonText';
import {
  objectJson,
  objectJsonPrefix,
  objectJsonRest,
  parseStored,
  type StoredObject,
} from '../store/clusterStore';
import type { SimulatedCluster } from '../sim/simulatedCluster';
import { uuid } from '../sim/simulatedCluster';
import { nextManagedFields } from './managedFields';

/** The resource a request addresses. */
export interface Target {
  type: ResourceType;
  version: string;
  namespace?: string;
  name?: string;
  subresource?: string;
}

/** An answer: status code, JSON body and content type. */
export interface Answer {
  status: number;
  body: Buffer | unknown;
  contentType?: string;
}

function apiVersionOf(target: Target): string {
  return groupVersion(target.type.group, target.version);
}

function now(): string {
  return new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function selectors(query: URLSearchParams, kind: string) {
  try {
    return {
      labels: parseLabelSelector(query.get('labelSelector') ?? undefined),
      fields: parseFieldSelector(query.get('fieldSelector') ?? undefined, kind),
    };
  } catch (error) {
    if (error instanceof SelectorParseError) throw badRequest(error.message);
    throw error;
  }
}

export { selectors as parseSelectors };

interface ContinueToken {
  rv: number;
  start: string;
}

function encodeContinue(token: ContinueToken): string {
  return Buffer.from(
    JSON.stringify({ v: 'meta.k8s.io/v1', rv: token.rv, start: token.start }),
  ).toString('base64');
}

function decodeContinue(text: string): ContinueToken {
  try {
    const parsed = JSON.parse(Buffer.from(text, 'base64').toString('utf8'));
    if (typeof parsed.rv === 'number' && typeof parsed.start === 'string')
      return parsed;
  } catch {
    // fall through
  }
  throw badRequest(
    'continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)',
  );
}

/** First index in sorted keys whose key is >= the probe. */
function lowerBound(keys: string[], probe: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid] < probe) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Table options of a request, when it asked for a Table. */
export interface TableRequest {
  apiVersion: string;
  include: IncludeObject;
}

/** GET on a collection: a page of objects in etcd order. */
export function list(
  cluster: SimulatedCluster,
  target: Target,
  query: URLSearchParams,
  table?: TableRequest,
  /** The `meta.k8s.io` version, when the client asked for a `PartialObjectMetadataList`. */
  metadataVersion?: string,
): Answer {
  const { type } = target;
  const { labels, fields } = selectors(query, type.kind);
  const limitText = query.get('limit');
  const limit = limitText ? Number(limitText) : 0;
  if (!Number.isInteger(limit) || limit < 0)
    throw badRequest(`invalid limit: ${limitText}`);
  const continueText = query.get('continue');
  const token = continueText ? decodeContinue(continueText) : undefined;
  const rv = token?.rv ?? cluster.store.resourceVersion;

  const storeTable = cluster.store.table(type);
  const keys = storeTable.keys();
  const prefix = target.namespace !== undefined ? `${target.namespace}/` : '';
  let i = lowerBound(keys, prefix);
  if (token) i = Math.max(i, lowerBound(keys, token.start));
  const bodyFields = needsBody(fields);
  const items: StoredObject[] = [];
  let more = false;
  let lastKey = '';
  for (; i < keys.length; i++) {
    const key = keys[i];
    if (prefix && !key.startsWith(prefix)) break;
    const object = storeTable.objects.get(key)!;
    if (!matchesLabels(labels, object.labels)) continue;
    if (fields.length > 0) {
      const subject = bodyFields
        ? parseStored(object)
        : { metadata: { name: object.name, namespace: object.namespace } };
      if (!matchesFields(fields, subject)) continue;
    }
    if (limit > 0 && items.length === limit) {
      more = true;
      break;
    }
    items.push(object);
    lastKey = key;
  }
  const metadata: Record<string, unknown> = { resourceVersion: String(rv) };
  if (more) {
    metadata.continue = encodeContinue({ rv, start: `${lastKey}\u0000` });
    if (labels.length === 0 && fields.length === 0) {
      let end = keys.length;
      if (prefix) end = lowerBound(keys, `${target.namespace}0`);
      metadata.remainingItemCount = end - i;
    }
  }
  const apiVersion = apiVersionOf(target);
  if (table) {
    const at = Date.now();
    return {
      status: 200,
      contentType: `application/json;as=Table;v=${
        table.apiVersion.split('/')[1]
      };g=meta.k8s.io`,
      body: {
        kind: 'Table',
        apiVersion: table.apiVersion,
        metadata,
        columnDefinitions: tableColumns(type),
        rows: items.map(o =>
          tableRow(
            type,
            parseStored(o, apiVersion, type.kind),
            table.include,
            at,
          ),
        ),
      },
    };
  }
  if (metadataVersion) {
    const parts: string[] = [
      `{"kind":"PartialObjectMetadataList","apiVersion":${JSON.stringify(
        metadataVersion,
      )},"metadata":${JSON.stringify(metadata)},"items":[`,
    ];
    items.forEach((object, index) => {
      if (index > 0) parts.push(',');
      parts.push(partialObjectMetadataJson(object, metadataVersion));
    });
    parts.push(']}');
    return {
      status: 200,
      contentType: partialMetadataContentType('PartialObjectMetadataList', metadataVersion),
      body: new JsonText(parts),
    };
  }
  // encoded into a reused buffer when sent (see JsonText)
  const itemPrefix = objectJsonPrefix(apiVersion, type.kind);
  const parts: string[] = [
    `{"apiVersion":${JSON.stringify(apiVersion)},"kind":${JSON.stringify(
      type.listKind,
    )},"metadata":${JSON.stringify(metadata)},"items":[`,
  ];
  items.forEach((object, index) => {
    if (index > 0) parts.push(',');
    parts.push(itemPrefix, objectJsonRest(object));
  });
  parts.push(']}');
  return { status: 200, body: new JsonText(parts) };
}

function getStored(cluster: SimulatedCluster, target: Target): StoredObject {
  const stored = cluster.store.get(
    target.type,
    target.namespace ?? '',
    target.name!,
  );
  if (!stored) throw notFound(target.type, target.name!);
  return stored;
}

function answerObject(
  target: Target,
  stored: StoredObject,
  status = 200,
  table?: TableRequest,
): Answer {
  if (table) {
    const object = parseStored(stored, apiVersionOf(target), target.type.kind);
    return {
      status,
      body: {
        kind: 'Table',
        apiVersion: table.apiVersion,
        metadata: { resourceVersion: String(stored.resourceVersion) },
        columnDefinitions: tableColumns(target.type),
        rows: [tableRow(target.type, object, table.include, Date.now())],
      },
    };
  }
  return {
    status,
    body: Buffer.from(objectJson(stored, apiVersionOf(target), target.type.kind)),
  };
}

/** GET on an object (or its status). */
export function get(
  cluster: SimulatedCluster,
  target: Target,
  table?: TableRequest,
  /** The `meta.k8s.io` version, when the client asked for a `PartialObjectMetadata`. */
  metadataVersion?: string,
): Answer {
  const stored = getStored(cluster, target);
  if (metadataVersion) {
    return {
      status: 200,
      contentType: partialMetadataContentType('PartialObjectMetadata', metadataVersion),
      body: Buffer.from(partialObjectMetadataJson(stored, metadataVersion)),
    };
  }
  return answerObject(target, stored, 200, table);
}

/** Whether the type keeps `metadata.generation` (everything with a spec). */
function hasGeneration(type: ResourceType): boolean {
  return (
    type.kind !== 'Namespace' &&
    type.kind !== 'ServiceAccount' &&
    type.kind !== 'Event'
  );
}

function withoutVolatile(object: any): string {
  const { metadata, ...rest } = object;
  const { resourceVersion: _rv, managedFields: _mf, ...meta } = metadata ?? {};
  return JSON.stringify({ ...rest, metadata: meta });
}

function specPart(object: any): string {
  const {
    metadata: _m,
    status: _s,
    apiVersion: _a,
    kind: _k,
    ...rest
  } = object;
  return JSON.stringify(rest);
}

function checkIdentity(target: Target, object: any): void {
  if (typeof object !== 'object' || object === null || Array.isArray(object)) {
    throw badRequest('the body of the request must be a JSON object');
  }
  const expected = apiVersionOf(target);
  if (object.apiVersion !== undefined && object.apiVersion !== expected) {
    throw badRequest(
      `the API version in the data (${object.apiVersion}) does not match the expected API version (${expected})`,
    );
  }
  if (object.kind !== undefined && object.kind !== target.type.kind) {
    throw badRequest(
      `the kind in the data (${object.kind}) does not match the expected kind (${target.type.kind})`,
    );
  }
  const metaNamespace = object.metadata?.namespace;
  if (
    target.type.namespaced &&
    metaNamespace &&
    target.namespace &&
    metaNamespace !== target.namespace
  ) {
    throw badRequest(
      'the namespace of the provided object does not match the namespace sent on the request',
    );
  }
}

function dryRun(query: URLSearchParams): boolean {
  return query.getAll('dryRun').includes('All');
}

/** POST on a collection. */
export function create(
  cluster: SimulatedCluster,
  target: Target,
  body: any,
  query: URLSearchParams,
  operation: 'Apply' | 'Update' = 'Update',
): Answer {
  const { type } = target;
  checkIdentity(target, body);
  const metadata = { ...(body.metadata ?? {}) };
  if (!metadata.name) {
    if (metadata.generateName) {
      metadata.name = `${metadata.generateName}${randomBytes(3)
        .toString('hex')
        .slice(0, 5)}`;
    } else {
      throw invalid(type, '', [
        {
          field: 'metadata.name',
          message: 'Required value: name or generateName is required',
        },
      ]);
    }
  }
  const namespace = type.namespaced
    ? target.namespace ?? metadata.namespace
    : undefined;
  if (type.namespaced) {
    if (!namespace)
      throw badRequest(
        'the server could not find the requested resource: a namespace is required',
      );
    if (!cluster.store.get(coreResourceType('Namespace'), '', namespace)) {
      throw notFound(coreResourceType('Namespace'), namespace);
    }
  }
  if (cluster.store.get(type, namespace ?? '', metadata.name))
    throw alreadyExists(type, metadata.name);
  delete metadata.deletionTimestamp;
  delete metadata.deletionGracePeriodSeconds;
  metadata.managedFields = nextManagedFields(undefined, {
    manager: query.get('fieldManager'),
    operation,
    apiVersion: apiVersionOf(target),
    time: now(),
  });
  const object: any = {
    ...body,
    apiVersion: apiVersionOf(target),
    kind: type.kind,
    metadata: {
      ...metadata,
      ...(namespace ? { namespace } : {}),
      uid: uuid(),
      creationTimestamp: now(),
      ...(hasGeneration(type) ? { generation: 1 } : {}),
    },
  };
  delete object.metadata.resourceVersion;
  if (type.statusSubresource) delete object.status;
  if (type.kind === 'Namespace') {
    object.spec = { finalizers: ['kubernetes'] };
    object.status = { phase: 'Active' };
    object.metadata.labels = {
      ...(object.metadata.labels ?? {}),
      'kubernetes.io/metadata.name': object.metadata.name,
    };
  }
  if (dryRun(query)) {
    return {
      status: 201,
      body: {
        ...object,
        metadata: {
          ...object.metadata,
          resourceVersion: String(cluster.store.resourceVersion),
        },
      },
    };
  }
  const stored = cluster.store.put(type, object);
  cluster.afterWrite(
    type,
    undefined,
    parseStored(stored, object.apiVersion, type.kind),
  );
  return answerObject(target, stored, 201);
}

/**
 * Stores the next version of an object after an update or patch: keeps what clients may not change, bumps the
 * generation on spec changes, stores nothing when nothing changed, and completes a deletion whose finalizers
 * are gone.
 */
function commit(
  cluster: SimulatedCluster,
  target: Target,
  current: StoredObject,
  next: any,
  query: URLSearchParams,
  operation: 'Apply' | 'Update' = 'Update',
): Answer {
  const { type } = target;
  const apiVersion = apiVersionOf(target);
  const old = parseStored(current, apiVersion, type.kind);
  if (
    next?.metadata?.resourceVersion !== undefined &&
    String(next.metadata.resourceVersion) !== String(current.resourceVersion)
  ) {
    throw conflict(type, target.name!);
  }
  const metadata = { ...(next.metadata ?? {}) };
  metadata.name = old.metadata.name;
  if (type.namespaced) metadata.namespace = old.metadata.namespace;
  metadata.uid = old.metadata.uid;
  metadata.creationTimestamp = old.metadata.creationTimestamp;
  if (old.metadata.deletionTimestamp) {
    metadata.deletionTimestamp = old.metadata.deletionTimestamp;
    metadata.deletionGracePeriodSeconds =
      old.metadata.deletionGracePeriodSeconds;
  } else {
    delete metadata.deletionTimestamp;
    delete metadata.deletionGracePeriodSeconds;
  }
  metadata.managedFields = nextManagedFields(old.metadata.managedFields, {
    manager: query.get('fieldManager'),
    operation,
    apiVersion,
    subresource: target.subresource,
    time: now(),
  });
  if (old.metadata.generation !== undefined) {
    metadata.generation =
      specPart(old) !== specPart(next)
        ? old.metadata.generation + 1
        : old.metadata.generation;
  }
  const object = { ...next, apiVersion, kind: type.kind, metadata };
  if (withoutVolatile(object) === withoutVolatile(old))
    return answerObject(target, current);
  if (dryRun(query)) return { status: 200, body: object };
  if (
    metadata.deletionTimestamp &&
    (!metadata.finalizers || metadata.finalizers.length === 0)
  ) {
    cluster.store.remove(type, target.namespace ?? '', target.name!);
    cluster.afterWrite(type, old, undefined);
    return { status: 200, body: object };
  }
  const stored = cluster.store.put(type, object);
  cluster.afterWrite(type, old, parseStored(stored, apiVersion, type.kind));
  return answerObject(target, stored);
}

/** PUT on an object or its status. */
export function update(
  cluster: SimulatedCluster,
  target: Target,
  body: any,
  query: URLSearchParams,
): Answer {
  checkIdentity(target, body);
  if (body.metadata?.name !== undefined && body.metadata.name !== target.name) {
    throw badRequest(
      `the name of the object (${body.metadata.name}) does not match the name on the URL (${target.name})`,
    );
  }
  const current = getStored(cluster, target);
  const old = parseStored(current, apiVersionOf(target), target.type.kind);
  let next: any;
  if (target.subresource === 'status') {
    next = {
      ...old,
      metadata: {
        ...old.metadata,
        resourceVersion: body.metadata?.resourceVersion,
      },
      status: body.status,
    };
  } else {
    next = { ...body, metadata: { ...(body.metadata ?? {}) } };
    if (target.type.statusSubresource) next.status = old.status;
  }
  if (next.status === undefined) delete next.status;
  return commit(cluster, target, current, next, query);
}

const PATCH_TYPES =
  'application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml';

/** PATCH on an object or its status. */
export function patch(
  cluster: SimulatedCluster,
  target: Target,
  contentType: string,
  body: any,
  query: URLSearchParams,
): Answer {
  const { type } = target;
  const current = cluster.store.get(type, target.namespace ?? '', target.name!);
  if (!current) {
    if (contentType === 'application/apply-patch+yaml' && !target.subresource) {
      if (!query.get('fieldManager')) {
        throw badRequest(
          'PATCH, fieldManager: Required value: is required for apply patch',
        );
      }
      return create(
        cluster,
        { ...target, name: undefined },
        { ...body, metadata: { ...(body?.metadata ?? {}), name: target.name } },
        query,
        'Apply',
      );
    }
    throw notFound(type, target.name!);
  }
  const old = parseStored(current, apiVersionOf(target), type.kind);
  let patched: any;
  switch (contentType) {
    case 'application/merge-patch+json':
      patched = applyMergePatch(old, body);
      break;
    case 'application/json-patch+json':
      patched = applyJsonPatch(old, body);
      break;
    case 'application/apply-patch+yaml':
      checkIdentity(target, body);
      patched = applyMergePatch(old, body);
      break;
    case 'application/strategic-merge-patch+json':
      if (type.flux) {
        throw new ApiError(
          415,
          'UnsupportedMediaType',
          `the body of the request was in an unknown format - accepted media types include: ${PATCH_TYPES}`,
        );
      }
      // Built-in kinds: maps merge like a strategic merge patch; lists are replaced (a simplification).
      patched = applyMergePatch(old, body);
      break;
    default:
      throw new ApiError(
        415,
        'UnsupportedMediaType',
        `the body of the request was in an unknown format - accepted media types include: ${PATCH_TYPES}`,
      );
  }
  if (typeof patched !== 'object' || patched === null)
    throw badRequest('the patch did not result in an object');
  let next: any;
  if (target.subresource === 'status') {
    next = {
      ...old,
      metadata: {
        ...old.metadata,
        resourceVersion: patched.metadata?.resourceVersion,
      },
      status: patched.status,
    };
    if (next.status === undefined) delete next.status;
  } else {
    next = { ...patched };
    if (type.statusSubresource) {
      if (old.status === undefined) delete next.status;
      else next.status = old.status;
    }
  }
  return commit(
    cluster,
    target,
    current,
    next,
    query,
    contentType === 'application/apply-patch+yaml' ? 'Apply' : 'Update',
  );
}

/** Removes every object of a namespace (namespace deletion, done at once rather than by a controller). */
function emptyNamespace(cluster: SimulatedCluster, namespace: string): void {
  for (const table of cluster.store.allTables()) {
    if (!table.type.namespaced) continue;
    for (const stored of [...table.objects.values()]) {
      if (stored.namespace !== namespace) continue;
      const old = parseStored(stored);
      cluster.store.remove(table.type, namespace, stored.name);
      cluster.afterWrite(
        table.type,
        { ...old, kind: table.type.kind },
        undefined,
      );
    }
  }
}

/** DELETE on an object: with finalizers it only gets a deletionTimestamp. */
export function remove(
  cluster: SimulatedCluster,
  target: Target,
  query: URLSearchParams,
): Answer {
  const { type } = target;
  const current = getStored(cluster, target);
  const apiVersion = apiVersionOf(target);
  const old = parseStored(current, apiVersion, type.kind);
  if (dryRun(query)) return { status: 200, body: old };
  const finalizers: string[] = old.metadata.finalizers ?? [];
  if (finalizers.length > 0) {
    if (old.metadata.deletionTimestamp) return answerObject(target, current);
    const next = {
      ...old,
      metadata: {
        ...old.metadata,
        deletionTimestamp: now(),
        deletionGracePeriodSeconds: 0,
        ...(old.metadata.generation !== undefined
          ? { generation: old.metadata.generation + 1 }
          : {}),
      },
    };
    const stored = cluster.store.put(type, next);
    cluster.afterWrite(type, old, parseStored(stored, apiVersion, type.kind));
    return answerObject(target, stored);
  }
  if (type.kind === 'Namespace') emptyNamespace(cluster, target.name!);
  cluster.store.remove(type, target.namespace ?? '', target.name!);
  cluster.afterWrite(type, old, undefined);
  return { status: 200, body: old };
}
