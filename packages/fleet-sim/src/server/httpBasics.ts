/** Small HTTP helpers shared by the simulated API servers and the admin API. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseYaml } from 'yaml';
import { ApiError } from '../api/apiError';
import { decodeKubernetesProtobuf } from '../api/protobuf';
import { jsonHeaders, JsonText, sendJsonText } from './jsonText';

/** Writes a JSON answer (an object, or JSON text already serialised). */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  contentType = 'application/json',
): void {
  if (body instanceof JsonText) {
    sendJsonText(res, status, body, contentType);
    return;
  }
  const payload = Buffer.isBuffer(body)
    ? body
    : Buffer.from(JSON.stringify(body));
  res.writeHead(status, jsonHeaders(contentType, payload.length));
  res.end(payload);
}

/**
 * Writes an answer's chunks as the connection takes them (the next one after `drain`), then ends it: a large
 * answer is never one string, and the thread serves other requests between its chunks. Stops when the client
 * goes away.
 */
export function writeChunks(res: ServerResponse, chunks: Iterator<string>): void {
  const next = (): void => {
    for (;;) {
      if (res.destroyed) return;
      const chunk = chunks.next();
      if (chunk.done) {
        res.end();
        return;
      }
      if (!res.write(chunk.value)) {
        res.once('drain', next);
        return;
      }
    }
  };
  next();
}

/** Writes an error as a Kubernetes `Status`. */
export function sendError(res: ServerResponse, error: unknown): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const apiError =
    error instanceof ApiError
      ? error
      : new ApiError(
          500,
          'InternalError',
          `Internal error occurred: ${String(
            (error as Error)?.message ?? error,
          )}`,
        );
  sendJson(res, apiError.code, apiError.toStatus());
}

/** Reads a request body, refusing bodies above the limit (kube-apiserver's is 3 MiB). */
export async function readBody(
  req: IncomingMessage,
  limit = 3 * 1024 * 1024,
): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) {
      throw new ApiError(
        413,
        'RequestEntityTooLarge',
        'Request entity too large: limit is 3145728',
      );
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** The media type of a Content-Type header, without parameters. */
export function mediaType(header: string | undefined): string {
  return (header ?? '').split(';')[0].trim().toLowerCase();
}

/** Parses a JSON (or, for apply patches and YAML bodies, YAML) request body. */
export function parseBody(body: Buffer, contentType: string | undefined): any {
  const type = mediaType(contentType);
  if (type === 'application/vnd.kubernetes.protobuf')
    return decodeKubernetesProtobuf(body);
  if (type.includes('protobuf') || type.includes('cbor')) {
    throw new ApiError(
      415,
      'UnsupportedMediaType',
      'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml',
    );
  }
  const text = body.toString('utf8');
  try {
    if (type.includes('yaml')) return parseYaml(text);
    return JSON.parse(text);
  } catch (error) {
    throw new ApiError(
      400,
      'BadRequest',
      `the body of the request could not be decoded: ${
        (error as Error).message
      }`,
    );
  }
}
