import {
  ApiException,
  AuthorizationV1Api,
  CustomObjectsApi,
  KubeConfig,
  Observable,
  PatchStrategy,
  type ObservableMiddleware,
  type RequestContext,
  type ResponseContext,
} from '@kubernetes/client-node';
import {
  FLUX_KIND_GROUP,
  FLUX_KIND_PLURAL,
  FluxObjectRef,
} from '@flux-fleet/plugin-flux-fleet-common';
import type { MergePatch } from './actionPatches';

/** How a write to a cluster failed. */
export type WriteFailure =
  /** The cluster refused the credentials' right to do it (403): the credentials are read-only for it. */
  | 'forbidden'
  /** The cluster refused the credentials themselves (401). */
  | 'unauthenticated'
  /** The object does not exist (404). */
  | 'not-found'
  /** The cluster could not be reached, did not answer in time, or failed (5xx). */
  | 'unreachable'
  /** Any other refusal (400, 409, 422, …). */
  | 'rejected';

/**
 * A failed read or write of a Flux object. The message names the cluster and the object and quotes the cluster's
 * own `Status.message`; it never carries the request (whose headers hold the credentials).
 */
export class ClusterWriteError extends Error {
  constructor(
    readonly cluster: string,
    readonly failure: WriteFailure,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'ClusterWriteError';
  }
}

/** Where a Flux object lives in a cluster's API. */
export interface ObjectLocation {
  ref: FluxObjectRef;
  /** `group/version`, the version the index reads the kind at. */
  apiVersion: string;
}

/**
 * Reads and merge-patches Flux objects of one cluster through `@kubernetes/client-node`, with the cluster's
 * configured `KubeConfig` (the one its watches use, so every auth form of the configuration works for writes
 * too). Every request has a deadline; every failure becomes a {@link ClusterWriteError}.
 */
export class ClusterWriter {
  private readonly objects: CustomObjectsApi;
  private readonly authorization: AuthorizationV1Api;

  constructor(
    readonly cluster: string,
    kubeConfig: KubeConfig,
    private readonly timeoutMs: number,
  ) {
    this.objects = kubeConfig.makeApiClient(CustomObjectsApi);
    this.authorization = kubeConfig.makeApiClient(AuthorizationV1Api);
  }

  /** The object as the cluster serves it now. */
  async get(location: ObjectLocation): Promise<unknown> {
    const { group, version } = splitApiVersion(location.apiVersion);
    const { ref } = location;
    return this.call(`read ${describe(ref)}`, options =>
      this.objects.getNamespacedCustomObject(
        {
          group,
          version,
          namespace: ref.namespace,
          plural: FLUX_KIND_PLURAL[ref.kind],
          name: ref.name,
        },
        options,
      ),
    );
  }

  /** Applies a JSON merge patch to the object; resolves with the object as patched. */
  async mergePatch(location: ObjectLocation, patch: MergePatch): Promise<unknown> {
    const { group, version } = splitApiVersion(location.apiVersion);
    const { ref } = location;
    return this.call(
      `patch ${describe(ref)}`,
      options =>
        this.objects.patchNamespacedCustomObject(
          {
            group,
            version,
            namespace: ref.namespace,
            plural: FLUX_KIND_PLURAL[ref.kind],
            name: ref.name,
            body: patch,
            fieldManager: 'flux-fleet',
          },
          options,
        ),
      PatchStrategy.MergePatch,
    );
  }

  /**
   * Whether the credentials may patch Kustomizations (a `SelfSubjectAccessReview`): the cheap up-front answer to
   * "are these credentials read-only?". Throws {@link ClusterWriteError} when the cluster does not answer.
   */
  async canPatchFluxObjects(): Promise<boolean> {
    const review = await this.call('review its own permissions', options =>
      this.authorization.createSelfSubjectAccessReview(
        {
          body: {
            apiVersion: 'authorization.k8s.io/v1',
            kind: 'SelfSubjectAccessReview',
            spec: {
              resourceAttributes: {
                group: FLUX_KIND_GROUP.Kustomization,
                resource: FLUX_KIND_PLURAL.Kustomization,
                verb: 'patch',
              },
            },
          },
        },
        options,
      ),
    );
    return review.status?.allowed === true;
  }

  private async call<T>(
    what: string,
    request: (options: { middleware: ObservableMiddleware[] }) => Promise<T>,
    contentType?: string,
  ): Promise<T> {
    const deadline = AbortSignal.timeout(this.timeoutMs);
    // the object-parameter API runs middleware as client-node's own Observable (a thin wrapper of a promise)
    const middleware: ObservableMiddleware = {
      pre: (context: RequestContext) => {
        context.setSignal(deadline);
        if (contentType) context.setHeaderParam('Content-Type', contentType);
        return new Observable(Promise.resolve(context));
      },
      post: (context: ResponseContext) => new Observable(Promise.resolve(context)),
    };
    try {
      return await request({ middleware: [middleware] });
    } catch (error) {
      throw this.toWriteError(what, error, deadline.aborted);
    }
  }

  private toWriteError(what: string, error: unknown, timedOut: boolean): ClusterWriteError {
    const prefix = `cluster '${this.cluster}' ${what}`;
    if (error instanceof ApiException) {
      const status = error.code;
      const detail = statusMessage(error.body);
      const failure = failureOf(status);
      return new ClusterWriteError(
        this.cluster,
        failure,
        `${prefix}: it answered ${status}${detail ? `: ${detail}` : ''}`,
        status,
      );
    }
    if (timedOut) {
      return new ClusterWriteError(
        this.cluster,
        'unreachable',
        `${prefix}: no answer within ${this.timeoutMs / 1000} s`,
      );
    }
    // node-fetch's errors name the URL and the socket error (ECONNREFUSED…), never the request headers
    const e = error as { message?: string; code?: string };
    const reason = String(e?.message ?? error).replace(/^request to \S+ failed, reason: /, '');
    return new ClusterWriteError(this.cluster, 'unreachable', `${prefix}: it cannot be reached (${reason})`);
  }
}

function failureOf(status: number): WriteFailure {
  if (status >= 500) return 'unreachable';
  return (
    ({ 401: 'unauthenticated', 403: 'forbidden', 404: 'not-found' } as Record<number, WriteFailure>)[
      status
    ] ?? 'rejected'
  );
}

function describe(ref: FluxObjectRef): string {
  return `${ref.kind} ${ref.namespace}/${ref.name}`;
}

function splitApiVersion(apiVersion: string): { group: string; version: string } {
  const slash = apiVersion.lastIndexOf('/');
  return { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}

/** The `message` of a Kubernetes `Status` body (client-node gives it parsed, or as text). */
function statusMessage(body: unknown): string | undefined {
  let parsed = body;
  if (typeof body === 'string') {
    try {
      parsed = JSON.parse(body);
    } catch {
      return body.trim().slice(0, 300) || undefined;
    }
  }
  const message = (parsed as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? message.slice(0, 500) : undefined;
}
