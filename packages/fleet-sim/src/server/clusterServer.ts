/**
 * The HTTP(S) server of one simulated cluster: bearer-token authentication (an admin and a read-only user),
 * faults (down, hang, latency, throttling), discovery, and the resource verbs. One listening port per cluster.
 */
import {
  createServer as createHttpServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createSecureServer, type Http2SecureServer, type Http2ServerResponse } from 'node:http2';
import type { Socket } from 'node:net';
import { ApiError, methodNotAllowed, qualifiedResource } from '../api/apiError';
import { partialMetadataVersion } from '../api/partialObjectMetadata';
import { wantsTable, tableVersion, type IncludeObject } from '../api/table';
import type { SimulatedCluster } from '../sim/simulatedCluster';
import { setMalformed } from '../sim/malformed';
import type { FaultChange } from '../sim/faults';
import {
  coreVersions,
  groupList,
  groupOne,
  resourceList,
  versionDocument,
} from './discovery';
import {
  mediaType,
  parseBody,
  readBody,
  sendError,
  sendJson,
} from './httpBasics';
import { openApiDocument, openApiIndex } from './openapi';
import { openApiV2Json, openApiV2Protobuf } from './openapiV2';
import { RequestCounter, requestClassOf } from './requestCounter';
import * as verbs from './resourceRequests';
import { servePodProxy } from './podProxy';
import { startWatch, type OpenWatch } from './watch';

/** A user of the simulated API server. */
interface User {
  name: string;
  admin: boolean;
  anonymous?: boolean;
}

const READ_VERBS = new Set(['get', 'list', 'watch']);

/** TLS material for HTTPS clusters. */
export interface TlsMaterial {
  key: string;
  cert: string;
  ca: string;
}

/** Options of a cluster server. */
export interface ClusterServerOptions {
  host: string;
  port: number;
  bookmarkIntervalMs: number;
  tls?: TlsMaterial;
}

/** The Kubernetes verb of a request. */
function verbOf(
  method: string,
  named: boolean,
  watching: boolean,
): string | undefined {
  switch (method) {
    case 'GET':
      if (named) return 'get';
      return watching ? 'watch' : 'list';
    case 'POST':
      return named ? undefined : 'create';
    case 'PUT':
      return named ? 'update' : undefined;
    case 'PATCH':
      return named ? 'patch' : undefined;
    case 'DELETE':
      return named ? 'delete' : 'deletecollection';
    default:
      return undefined;
  }
}

function notFoundPath(): ApiError {
  return new ApiError(
    404,
    'NotFound',
    'the server could not find the requested resource',
  );
}

/** Serves one simulated cluster. */
export class ClusterServer {
  private server: Server | Http2SecureServer;
  private readonly sockets = new Set<Socket>();
  private readonly watches = new Set<OpenWatch>();
  private port: number;
  private listening = false;
  /** Every request received, by user (the admin API serves it). */
  readonly requests = new RequestCounter();

  constructor(
    readonly cluster: SimulatedCluster,
    private readonly options: ClusterServerOptions,
  ) {
    this.port = options.port;
    this.server = this.createServer();
  }

  private createServer(): Server | Http2SecureServer {
    const handler = (req: IncomingMessage, res: ServerResponse) => {
      if (req.httpVersionMajor >= 2) {
        // Node's HTTP/2 compatibility response has no `destroyed` of its own; its stream's says the same
        Object.defineProperty(res, 'destroyed', {
          get: () => (res as unknown as Http2ServerResponse).stream.destroyed,
        });
      }
      this.handle(req, res).catch(error => sendError(res, error));
    };
    // kube-apiserver speaks HTTP/2 over TLS (offered by ALPN) and HTTP/1.1 to clients that ask for it
    const server = this.options.tls
      ? createSecureServer(
          { key: this.options.tls.key, cert: this.options.tls.cert, allowHTTP1: true },
          handler as unknown as Parameters<typeof createSecureServer>[1],
        )
      : createHttpServer(handler);
    if ('keepAliveTimeout' in server) server.keepAliveTimeout = 65_000;
    server.on('connection', socket => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    server.on('secureConnection', socket => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    return server;
  }

  /** The URL clients use. */
  get url(): string {
    return `${this.options.tls ? 'https' : 'http'}://${this.options.host}:${
      this.port
    }`;
  }

  async listen(): Promise<void> {
    if (this.listening) return;
    await new Promise<void>((resolve, reject) => {
      const onError = (error: Error) => reject(error);
      this.server.once('error', onError);
      this.server.listen(this.port, this.options.host, () => {
        this.server.off('error', onError);
        const address = this.server.address();
        if (address && typeof address === 'object') this.port = address.port;
        resolve();
      });
    });
    this.listening = true;
  }

  /** Stops listening and drops every connection (used by `down` and on close). */
  async stop(): Promise<void> {
    for (const watch of [...this.watches]) watch.close();
    if (!this.listening) return;
    this.listening = false;
    const closed = new Promise<void>(resolve =>
      this.server.close(() => resolve()),
    );
    for (const socket of this.sockets) socket.destroy();
    await closed;
    this.server = this.createServer();
  }

  /** Applies a fault change. */
  async applyFaults(change: FaultChange): Promise<void> {
    const faults = this.cluster.faults;
    const { podMetrics, ...rest } = change;
    // The controllers' counters run with the old faults (API throttling shows in their REST client) until now.
    this.cluster.metrics.advanceAll();
    Object.assign(faults, rest);
    if (podMetrics) {
      const merged = { ...faults.podMetrics };
      for (const [pod, fault] of Object.entries(podMetrics)) {
        if (fault === 'reset') {
          // A counter reset happens once: the pod's process restarts its counters.
          const found = this.cluster.pods.all().find(p => p.name === pod);
          if (found) this.cluster.metrics.reset(found);
          delete merged[pod];
        } else if (fault === null) delete merged[pod];
        else merged[pod] = fault;
      }
      faults.podMetrics = merged;
    }
    if (change.expireWatches)
      for (const watch of [...this.watches]) watch.expire();
    if (change.malformed !== undefined)
      setMalformed(this.cluster, change.malformed);
    if (change.down === true) await this.stop();
    if (change.down === false) await this.listen();
  }

  private authenticate(req: IncomingMessage): User | undefined {
    const header = req.headers.authorization;
    if (header === undefined && !this.options.tls) {
      // client-go (kubectl) never sends credentials over plain HTTP (kubernetes/kubectl#744): let such requests
      // read, never write, so that `kubectl get` works against an HTTP fleet.
      return { name: 'system:anonymous', admin: false, anonymous: true };
    }
    const m = /^Bearer\s+(\S+)$/i.exec(header ?? '');
    if (!m) return undefined;
    if (m[1] === this.cluster.adminToken)
      return { name: 'flux-fleet-admin', admin: true };
    if (m[1] === this.cluster.readOnlyToken)
      return { name: 'flux-fleet-readonly', admin: false };
    return undefined;
  }

  private async handle(
    req: IncomingMessage,
    res: ServerResponse,
  ): Promise<void> {
    const user = this.authenticate(req);
    this.requests.count(user?.name ?? 'unauthenticated', requestClassOf(req.method, req.url ?? ''));
    const { faults } = this.cluster;
    if (faults.hang) return; // accepted, never answered
    if (faults.latencyMs > 0)
      await new Promise(r => setTimeout(r, faults.latencyMs));
    const url = new URL(req.url ?? '/', 'http://simulated');
    const path = url.pathname.replace(/\/+$/, '') || '/';

    if (path === '/healthz' || path === '/livez' || path === '/readyz') {
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.end('ok');
      return;
    }
    if (faults.throttleRatio > 0 && Math.random() < faults.throttleRatio) {
      const retry = faults.retryAfterSeconds;
      res.setHeader('Retry-After', String(retry));
      sendJson(
        res,
        429,
        new ApiError(
          429,
          'TooManyRequests',
          'Too many requests, please try again later.',
          {
            retryAfterSeconds: retry,
          },
        ).toStatus(),
      );
      return;
    }
    if (path === '/version') {
      sendJson(
        res,
        200,
        versionDocument(this.cluster.kubernetesVersion, this.cluster.gitCommit),
      );
      return;
    }
    if (!user) {
      sendJson(
        res,
        401,
        new ApiError(401, 'Unauthorized', 'Unauthorized').toStatus(),
      );
      return;
    }
    const { served } = this.cluster;
    const segments = path.split('/').filter(Boolean);

    // Discovery.
    if (req.method === 'GET') {
      if (path === '/api') {
        sendJson(res, 200, coreVersions(`${this.options.host}:${this.port}`));
        return;
      }
      if (path === '/apis') {
        sendJson(res, 200, groupList(served));
        return;
      }
      if (segments[0] === 'api' && segments.length === 2) {
        const doc = resourceList(served, '', segments[1]);
        if (!doc) throw notFoundPath();
        sendJson(res, 200, doc);
        return;
      }
      if (segments[0] === 'apis' && segments.length === 2) {
        const doc = groupOne(served, segments[1]);
        if (!doc) throw notFoundPath();
        sendJson(res, 200, doc);
        return;
      }
      if (path === '/openapi/v2') {
        const { kubernetesVersion } = this.cluster;
        if ((req.headers.accept ?? '').includes('protobuf')) {
          sendJson(
            res,
            200,
            openApiV2Protobuf(kubernetesVersion),
            // what kube-apiserver answers (Go's mime parser refuses the `@` of the media type asked for)
            'application/octet-stream',
          );
        } else {
          sendJson(res, 200, openApiV2Json(kubernetesVersion));
        }
        return;
      }
      if (path === '/openapi/v3') {
        sendJson(res, 200, openApiIndex(served));
        return;
      }
      if (segments[0] === 'openapi' && segments[1] === 'v3') {
        const [group, version] =
          segments[2] === 'api'
            ? ['', segments[3]]
            : [segments[3], segments[4]];
        const doc =
          segments.length === (segments[2] === 'api' ? 4 : 5)
            ? openApiDocument(
                served,
                group,
                version,
                this.cluster.kubernetesVersion,
              )
            : undefined;
        if (!doc) throw notFoundPath();
        sendJson(res, 200, doc);
        return;
      }
      if (segments[0] === 'apis' && segments.length === 3) {
        const doc = resourceList(served, segments[1], segments[2]);
        if (!doc) throw notFoundPath();
        sendJson(res, 200, doc);
        return;
      }
    }
    if (
      req.method === 'POST' &&
      path === '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews'
    ) {
      const review = parseBody(
        await readBody(req),
        req.headers['content-type'],
      );
      const verb =
        review?.spec?.resourceAttributes?.verb ??
        review?.spec?.nonResourceAttributes?.verb;
      const attributes = review?.spec?.resourceAttributes;
      const proxyDenied =
        !user.admin &&
        attributes?.resource === 'pods' &&
        attributes?.subresource === 'proxy' &&
        this.cluster.faults.podsProxyForbidden;
      const allowed = !proxyDenied && (user.admin || READ_VERBS.has(verb));
      sendJson(res, 201, {
        kind: 'SelfSubjectAccessReview',
        apiVersion: 'authorization.k8s.io/v1',
        metadata: { creationTimestamp: null },
        spec: review?.spec ?? {},
        status: {
          allowed,
          ...(allowed
            ? {}
            : {
                reason: proxyDenied
                  ? `${user.name} may not get pods/proxy on this cluster`
                  : `${user.name} may only get, list and watch`,
              }),
        },
      });
      return;
    }

    // Resources.
    let group: string;
    let version: string;
    let rest: string[];
    if (segments[0] === 'api' && segments[1] === 'v1') {
      group = '';
      version = 'v1';
      rest = segments.slice(2);
    } else if (segments[0] === 'apis' && segments.length >= 4) {
      group = segments[1];
      version = segments[2];
      rest = segments.slice(3);
    } else {
      throw notFoundPath();
    }
    let namespace: string | undefined;
    let plural: string;
    let name: string | undefined;
    let subresource: string | undefined;
    if (
      group === '' &&
      rest[0] === 'namespaces' &&
      rest[2] === 'pods' &&
      rest[4] === 'proxy'
    ) {
      servePodProxy(this.cluster, user, req, res, {
        namespace: decodeURIComponent(rest[1]),
        target: decodeURIComponent(rest[3] ?? ''),
        path: `/${rest.slice(5).join('/')}`,
      });
      return;
    }
    if (
      rest[0] === 'namespaces' &&
      rest.length >= 3 &&
      this.cluster.resolve(group, version, rest[2])
    ) {
      namespace = decodeURIComponent(rest[1]);
      plural = rest[2];
      name = rest[3] !== undefined ? decodeURIComponent(rest[3]) : undefined;
      subresource = rest[4];
    } else {
      plural = rest[0];
      name = rest[1] !== undefined ? decodeURIComponent(rest[1]) : undefined;
      subresource = rest[2];
    }
    const resolved = this.cluster.resolve(group, version, plural);
    if (!resolved) throw notFoundPath();
    const { type } = resolved.served;
    if (
      (namespace !== undefined && !type.namespaced) ||
      (subresource !== undefined && subresource !== 'status') ||
      (subresource === 'status' && !type.statusSubresource)
    ) {
      throw notFoundPath();
    }
    const target: verbs.Target = {
      type,
      version: resolved.version,
      namespace,
      name,
      subresource,
    };
    const query = url.searchParams;
    const watching =
      query.get('watch') === 'true' || query.get('watch') === '1';
    const verb = verbOf(req.method ?? 'GET', name !== undefined, watching);
    if (!verb) throw methodNotAllowed();
    if (type.kind === 'Pod' && !READ_VERBS.has(verb)) {
      // Pods follow their Deployment (the simulated ReplicaSet); change the Deployment instead.
      throw methodNotAllowed();
    }
    if (!user.admin && !READ_VERBS.has(verb)) {
      const where = namespace
        ? ` in the namespace "${namespace}"`
        : ' at the cluster scope';
      const resource = subresource ? `${plural}/${subresource}` : plural;
      throw new ApiError(
        403,
        'Forbidden',
        `${qualifiedResource(type)}${
          name ? ` "${name}"` : ''
        } is forbidden: User "${
          user.name
        }" cannot ${verb} resource "${resource}" in API group "${group}"${where}${
          user.anonymous
            ? ' (no credentials were sent: kubectl sends none over plain HTTP; start fleet-sim with --tls to use the admin context)'
            : ''
        }`,
        { name, group: group || undefined, kind: plural },
      );
    }
    const accept = req.headers.accept;
    const table = wantsTable(accept)
      ? {
          apiVersion: tableVersion(accept!),
          include:
            (query.get('includeObject') as IncludeObject | null) ?? 'Metadata',
        }
      : undefined;
    // metadata-only objects (client-go's metadata informers): a list asks for the list kind, get and watch for
    // the object kind
    const metadataVersion = table
      ? undefined
      : partialMetadataVersion(
          accept,
          verb === 'list' ? 'PartialObjectMetadataList' : 'PartialObjectMetadata',
        );

    let answer: verbs.Answer;
    switch (verb) {
      case 'get':
        answer = verbs.get(this.cluster, target, table, metadataVersion);
        break;
      case 'list':
        answer = verbs.list(this.cluster, target, query, table, metadataVersion);
        break;
      case 'watch': {
        const { labels, fields } = verbs.parseSelectors(query, type.kind);
        const timeout = query.get('timeoutSeconds');
        startWatch(
          this.cluster,
          {
            type,
            version: resolved.version,
            namespace,
            labels,
            fields,
            resourceVersion: query.get('resourceVersion') ?? undefined,
            allowBookmarks: query.get('allowWatchBookmarks') === 'true',
            timeoutSeconds: timeout ? Number(timeout) : undefined,
            sendInitialEvents: query.get('sendInitialEvents') === 'true',
            table,
            metadataVersion,
          },
          req,
          res,
          {
            bookmarkIntervalMs: this.options.bookmarkIntervalMs,
            registry: this.watches,
          },
        );
        return;
      }
      case 'create':
        answer = verbs.create(
          this.cluster,
          target,
          parseBody(await readBody(req), req.headers['content-type']),
          query,
        );
        break;
      case 'update':
        answer = verbs.update(
          this.cluster,
          target,
          parseBody(await readBody(req), req.headers['content-type']),
          query,
        );
        break;
      case 'patch':
        answer = verbs.patch(
          this.cluster,
          target,
          mediaType(req.headers['content-type']),
          parseBody(await readBody(req), req.headers['content-type']),
          query,
        );
        break;
      case 'delete':
        answer = verbs.remove(this.cluster, target, query);
        break;
      default:
        throw methodNotAllowed();
    }
    sendJson(res, answer.status, answer.body, answer.contentType);
  }
}
