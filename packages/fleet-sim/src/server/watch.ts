/**
 * Watches, as kube-apiserver's watch cache serves them: from a resourceVersion (replaying retained changes;
 * `410 Gone` as an ERROR event when it is older than the retained window), or from now with synthetic ADDED
 * events; label and field selectors (an object whose labels stop matching is sent as DELETED); BOOKMARK events
 * when asked for; `timeoutSeconds`; and forced expiry (the `expireWatches` fault).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tooOldResourceVersion, type ApiError } from '../api/apiError';
import {
  matchesFields,
  needsBody,
  type FieldRequirement,
} from '../api/fieldSelector';
import { matchesLabels, type LabelSelector } from '../api/labelSelector';
import {
  partialMetadataContentType,
  partialObjectMetadataJson,
} from '../api/partialObjectMetadata';
import {
  groupVersion,
  resourceKey,
  type ResourceType,
} from '../api/resourceTypes';
import { tableColumns, tableRow, type IncludeObject } from '../api/table';
import {
  objectJson,
  parseStored,
  type StoredObject,
  type StoreEvent,
} from '../store/clusterStore';
import type { SimulatedCluster } from '../sim/simulatedCluster';

/** What a watch asks for. */
export interface WatchRequest {
  type: ResourceType;
  version: string;
  namespace?: string;
  labels: LabelSelector;
  fields: FieldRequirement[];
  resourceVersion?: string;
  allowBookmarks: boolean;
  timeoutSeconds?: number;
  sendInitialEvents: boolean;
  /** Set when the client asked for Table rows. */
  table?: { apiVersion: string; include: IncludeObject };
  /** The `meta.k8s.io` version, when the client asked for objects as `PartialObjectMetadata`. */
  metadataVersion?: string;
}

/** An open watch. */
export interface OpenWatch {
  /** Ends the watch with a 410 Gone ERROR event, as when its resourceVersion expired. */
  expire(): void;
  /** Ends the watch. */
  close(): void;
}

/** Open watches are dropped when this many bytes are waiting to be written (a too-slow client). */
const MAX_PENDING_BYTES = 16 * 1024 * 1024;

function statusEvent(error: ApiError): Buffer {
  return Buffer.from(
    `${JSON.stringify({ type: 'ERROR', object: error.toStatus() })}\n`,
  );
}

/** Starts a watch; the response stays open until it ends. */
export function startWatch(
  cluster: SimulatedCluster,
  request: WatchRequest,
  req: IncomingMessage,
  res: ServerResponse,
  options: { bookmarkIntervalMs: number; registry: Set<OpenWatch> },
): void {
  const { type, version, namespace, labels, fields } = request;
  const apiVersion = groupVersion(type.group, version);
  const key = resourceKey(type);
  const bodyFields = needsBody(fields);
  let headerSent = false;

  res.writeHead(200, {
    'Content-Type': request.metadataVersion
      ? partialMetadataContentType('PartialObjectMetadata', request.metadataVersion)
      : 'application/json',
    'Cache-Control': 'no-cache, private',
    // HTTP/2 frames the body itself and forbids the header
    ...(req.httpVersionMajor < 2 && { 'Transfer-Encoding': 'chunked' }),
  });
  res.flushHeaders();

  let ended = false;
  let bookmarkTimer: NodeJS.Timeout | undefined;
  // kube-apiserver ends watches after timeoutSeconds, or after a random 30–60 minutes.
  const timeout =
    request.timeoutSeconds !== undefined
      ? request.timeoutSeconds * 1000
      : (1800 + Math.random() * 1800) * 1000;
  const stopTimer = setTimeout(() => end(), timeout);
  stopTimer.unref();
  let unsubscribe: () => void = () => {};
  const watch: OpenWatch = {
    expire: () => {
      const oldest = cluster.store.oldestWatchableVersion;
      end(statusEvent(tooOldResourceVersion(Math.max(0, oldest - 1), oldest)));
    },
    close: () => end(),
  };
  function end(last?: Buffer): void {
    if (ended) return;
    ended = true;
    unsubscribe();
    clearTimeout(bookmarkTimer);
    clearTimeout(stopTimer);
    options.registry.delete(watch);
    if (last && res.writable) res.write(last);
    res.end();
  }
  req.on('close', () => end());
  res.on('error', () => end());

  const matches = (object: StoredObject): boolean => {
    if (namespace !== undefined && object.namespace !== namespace) return false;
    if (!matchesLabels(labels, object.labels)) return false;
    if (fields.length === 0) return true;
    const subject = bodyFields
      ? parseStored(object)
      : { metadata: { name: object.name, namespace: object.namespace } };
    return matchesFields(fields, subject);
  };

  const write = (eventType: string, object: StoredObject): void => {
    if (ended) return;
    let payload: Buffer | string;
    if (request.table) {
      const parsed = parseStored(object, apiVersion, type.kind);
      const table = {
        kind: 'Table',
        apiVersion: request.table.apiVersion,
        metadata: { resourceVersion: String(object.resourceVersion) },
        columnDefinitions: headerSent ? [] : tableColumns(type),
        rows: [tableRow(type, parsed, request.table.include, Date.now())],
      };
      headerSent = true;
      payload = Buffer.from(
        `${JSON.stringify({ type: eventType, object: table })}\n`,
      );
    } else if (request.metadataVersion) {
      payload = `{"type":"${eventType}","object":${partialObjectMetadataJson(object, request.metadataVersion)}}\n`;
    } else {
      payload = `{"type":"${eventType}","object":${objectJson(object, apiVersion, type.kind)}}\n`;
    }
    res.write(payload);
    if (res.writableLength > MAX_PENDING_BYTES) end();
  };

  const bookmark = (annotations?: Record<string, string>): void => {
    if (ended) return;
    const metadata: Record<string, unknown> = {
      resourceVersion: String(cluster.store.resourceVersion),
      creationTimestamp: null,
    };
    if (annotations) metadata.annotations = annotations;
    res.write(
      `${JSON.stringify({
        type: 'BOOKMARK',
        object: request.metadataVersion
          ? { kind: 'PartialObjectMetadata', apiVersion: request.metadataVersion, metadata }
          : { kind: type.kind, apiVersion, metadata },
      })}\n`,
    );
  };

  const deliver = (event: StoreEvent): void => {
    if (resourceKey(event.resource) !== key) return;
    const now = matches(event.object);
    if (event.type === 'MODIFIED') {
      // Name, namespace and the Event fields do not change; only the labels can move an object in or out.
      const before = now
        ? matchesLabels(labels, event.previousLabels)
        : matches({ ...event.object, labels: event.previousLabels });
      if (before && now) write('MODIFIED', event.object);
      else if (!before && now) write('ADDED', event.object);
      else if (before && !now) write('DELETED', event.object);
      return;
    }
    if (now) write(event.type, event.object);
  };

  if (cluster.faults.expireWatches) {
    watch.expire();
    return;
  }

  // What happened since the requested version, or the current state as synthetic ADDED events.
  const requested = request.resourceVersion;
  if (
    requested !== undefined &&
    requested !== '' &&
    requested !== '0' &&
    !request.sendInitialEvents
  ) {
    const from = Number(requested);
    const changes = Number.isFinite(from)
      ? cluster.store.changesSince(from)
      : undefined;
    if (!changes) {
      end(
        statusEvent(
          tooOldResourceVersion(
            Number.isFinite(from) ? from : 0,
            cluster.store.oldestWatchableVersion,
          ),
        ),
      );
      return;
    }
    for (const change of changes) deliver(change);
  } else {
    const table = cluster.store.table(type);
    for (const k of table.keys()) {
      const object = table.objects.get(k)!;
      if (matches(object)) write('ADDED', object);
    }
    if (request.sendInitialEvents)
      bookmark({ 'k8s.io/initial-events-end': 'true' });
  }
  unsubscribe = cluster.store.subscribe(deliver);
  options.registry.add(watch);

  if (request.allowBookmarks) {
    const tick = () => {
      bookmark();
      if (!ended) {
        bookmarkTimer = setTimeout(tick, options.bookmarkIntervalMs);
        bookmarkTimer.unref();
      }
    };
    bookmarkTimer = setTimeout(tick, options.bookmarkIntervalMs);
    bookmarkTimer.unref();
  }
}
