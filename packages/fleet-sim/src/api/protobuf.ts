/**
 * Decodes the protobuf bodies kubectl sends for a few built-in kinds (its typed commands: `create namespace`,
 * `create serviceaccount`, `auth can-i`) into the JSON the rest of the server handles. The envelope is
 * `k8s\0` + runtime.Unknown{typeMeta, raw}; field numbers are those of k8s.io/api's generated.proto. Other kinds
 * are refused with 415, as by a server that does not speak protobuf.
 */
import { ApiError } from './apiError';

type Field = { number: number; wire: number; value: bigint | Buffer };

function readVarint(buffer: Buffer, offset: number): [bigint, number] {
  let result = 0n;
  let shift = 0n;
  let i = offset;
  for (;;) {
    if (i >= buffer.length) throw new Error('truncated varint');
    const byte = buffer[i++];
    result |= BigInt(byte & 0x7f) << shift;
    if ((byte & 0x80) === 0) return [result, i];
    shift += 7n;
  }
}

function fields(buffer: Buffer): Field[] {
  const out: Field[] = [];
  let i = 0;
  while (i < buffer.length) {
    const [key, next] = readVarint(buffer, i);
    i = next;
    const number = Number(key >> 3n);
    const wire = Number(key & 7n);
    if (wire === 0) {
      const [value, after] = readVarint(buffer, i);
      out.push({ number, wire, value });
      i = after;
    } else if (wire === 2) {
      const [length, after] = readVarint(buffer, i);
      const end = after + Number(length);
      out.push({ number, wire, value: buffer.subarray(after, end) });
      i = end;
    } else if (wire === 1) {
      out.push({ number, wire, value: buffer.subarray(i, i + 8) });
      i += 8;
    } else if (wire === 5) {
      out.push({ number, wire, value: buffer.subarray(i, i + 4) });
      i += 4;
    } else {
      throw new Error(`unsupported wire type ${wire}`);
    }
  }
  return out;
}

/** How to read one message type: field number → JSON name and reader. */
type Schema = Record<number, [string, Reader]>;
type Reader = (value: bigint | Buffer) => unknown;

const str: Reader = v => (v as Buffer).toString('utf8');
const int: Reader = v => Number(v as bigint);
const bool: Reader = v => (v as bigint) !== 0n;
const message =
  (schema: Schema): Reader =>
  v =>
    decode(v as Buffer, schema);
const time: Reader = v => {
  const parts = decode(v as Buffer, {
    1: ['seconds', int],
    2: ['nanos', int],
  }) as { seconds?: number };
  return new Date((parts.seconds ?? 0) * 1000)
    .toISOString()
    .replace('.000Z', 'Z');
};
const REPEATED = Symbol('repeated');
const MAP = Symbol('map');
function repeated(reader: Reader): Reader {
  const r = (v: bigint | Buffer) => reader(v);
  (r as any)[REPEATED] = true;
  return r;
}
const stringMap: Reader = Object.assign(
  (v: bigint | Buffer) =>
    decode(v as Buffer, { 1: ['key', str], 2: ['value', str] }),
  { [MAP]: true },
);

function decode(buffer: Buffer, schema: Schema): Record<string, unknown> {
  const out: Record<string, any> = {};
  for (const field of fields(buffer)) {
    const entry = schema[field.number];
    if (!entry) continue;
    const [name, reader] = entry;
    const value = reader(field.value);
    if ((reader as any)[MAP]) {
      const { key, value: v } = value as { key: string; value: string };
      out[name] = { ...(out[name] ?? {}), [key ?? '']: v ?? '' };
    } else if ((reader as any)[REPEATED]) {
      out[name] = [...(out[name] ?? []), value];
    } else {
      out[name] = value;
    }
  }
  return out;
}

const OBJECT_META: Schema = {
  1: ['name', str],
  2: ['generateName', str],
  3: ['namespace', str],
  5: ['uid', str],
  6: ['resourceVersion', str],
  7: ['generation', int],
  8: ['creationTimestamp', time],
  11: ['labels', stringMap],
  12: ['annotations', stringMap],
  14: ['finalizers', repeated(str)],
};

const KINDS: Record<string, Schema> = {
  'v1/Namespace': {
    1: ['metadata', message(OBJECT_META)],
    2: ['spec', message({ 1: ['finalizers', repeated(str)] })],
  },
  'v1/ServiceAccount': {
    1: ['metadata', message(OBJECT_META)],
    3: ['imagePullSecrets', repeated(message({ 1: ['name', str] }))],
    4: ['automountServiceAccountToken', bool],
  },
  'authorization.k8s.io/v1/SelfSubjectAccessReview': {
    1: ['metadata', message(OBJECT_META)],
    2: [
      'spec',
      message({
        1: [
          'resourceAttributes',
          message({
            1: ['namespace', str],
            2: ['verb', str],
            3: ['group', str],
            4: ['version', str],
            5: ['resource', str],
            6: ['subresource', str],
            7: ['name', str],
          }),
        ],
        2: [
          'nonResourceAttributes',
          message({ 1: ['path', str], 2: ['verb', str] }),
        ],
      }),
    ],
  },
};

const MAGIC = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

/** Decodes a Kubernetes protobuf body into JSON, or refuses it with 415. */
export function decodeKubernetesProtobuf(
  body: Buffer,
): Record<string, unknown> {
  const refuse = (what: string) =>
    new ApiError(
      415,
      'UnsupportedMediaType',
      `the body of the request was in an unknown format (${what}) - accepted media types include: application/json, application/yaml`,
    );
  if (!body.subarray(0, 4).equals(MAGIC))
    throw refuse('not a Kubernetes protobuf envelope');
  try {
    const unknown = decode(body.subarray(4), {
      1: ['typeMeta', message({ 1: ['apiVersion', str], 2: ['kind', str] })],
      2: ['raw', v => v],
    }) as { typeMeta?: { apiVersion?: string; kind?: string }; raw?: Buffer };
    const apiVersion = unknown.typeMeta?.apiVersion ?? '';
    const kind = unknown.typeMeta?.kind ?? '';
    const schema = KINDS[`${apiVersion}/${kind}`];
    if (!schema) throw refuse(`protobuf of ${apiVersion} ${kind}`);
    return {
      apiVersion,
      kind,
      ...decode(unknown.raw ?? Buffer.alloc(0), schema),
    };
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw new ApiError(
      400,
      'BadRequest',
      `the body of the request could not be decoded: ${
        (error as Error).message
      }`,
    );
  }
}
