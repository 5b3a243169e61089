/**
 * Errors answered as Kubernetes `Status` bodies, with the reasons and codes kube-apiserver uses.
 */

/** The `details` of a Status. */
export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  retryAfterSeconds?: number;
  causes?: Array<{ reason?: string; message?: string; field?: string }>;
}

/** An error the API answers with a `Status` body and an HTTP code. */
export class ApiError extends Error {
  constructor(
    readonly code: number,
    readonly reason: string,
    message: string,
    readonly details?: StatusDetails,
  ) {
    super(message);
  }

  /** The `Status` object kube-apiserver writes for this error. */
  toStatus(): Record<string, unknown> {
    return {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: this.message,
      reason: this.reason,
      ...(this.details ? { details: this.details } : {}),
      code: this.code,
    };
  }
}

/** `<plural>.<group>` as kube-apiserver names a resource in messages (`<plural>` for the core group). */
export function qualifiedResource(type: {
  plural: string;
  group: string;
}): string {
  return type.group ? `${type.plural}.${type.group}` : type.plural;
}

export function notFound(
  type: { plural: string; group: string },
  name: string,
): ApiError {
  return new ApiError(
    404,
    'NotFound',
    `${qualifiedResource(type)} "${name}" not found`,
    { name, group: type.group || undefined, kind: type.plural },
  );
}

export function alreadyExists(
  type: { plural: string; group: string },
  name: string,
): ApiError {
  return new ApiError(
    409,
    'AlreadyExists',
    `${qualifiedResource(type)} "${name}" already exists`,
    { name, group: type.group || undefined, kind: type.plural },
  );
}

export function conflict(
  type: { plural: string; group: string },
  name: string,
): ApiError {
  return new ApiError(
    409,
    'Conflict',
    `Operation cannot be fulfilled on ${qualifiedResource(
      type,
    )} "${name}": the object has been modified; please apply your changes to the latest version and try again`,
    { name, group: type.group || undefined, kind: type.plural },
  );
}

export function badRequest(message: string): ApiError {
  return new ApiError(400, 'BadRequest', message);
}

export function invalid(
  type: { kind: string; group: string },
  name: string,
  causes: Array<{ field: string; message: string }>,
): ApiError {
  const what = type.group ? `${type.kind}.${type.group}` : type.kind;
  return new ApiError(
    422,
    'Invalid',
    `${what} "${name}" is invalid: ${causes
      .map(c => `${c.field}: ${c.message}`)
      .join(', ')}`,
    {
      name,
      group: type.group || undefined,
      kind: type.kind,
      causes: causes.map(c => ({
        reason: 'FieldValueInvalid',
        message: c.message,
        field: c.field,
      })),
    },
  );
}

/** The 410 `Expired` kube-apiserver answers when a watch starts before the retained window. */
export function tooOldResourceVersion(
  requested: number,
  oldest: number,
): ApiError {
  return new ApiError(
    410,
    'Expired',
    `too old resource version: ${requested} (${oldest})`,
  );
}

export function methodNotAllowed(): ApiError {
  return new ApiError(
    405,
    'MethodNotAllowed',
    'the server does not allow this method on the requested resource',
  );
}
