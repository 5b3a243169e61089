/**
 * JSON merge patch (RFC 7386) and JSON patch (RFC 6902), the two patch types kube-apiserver accepts for custom
 * resources.
 */
import { ApiError } from './apiError';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Applies a JSON merge patch: objects merge recursively, `null` removes, anything else replaces. */
export function applyMergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return patch;
  const result: Record<string, unknown> = isObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) {
      delete result[key];
    } else {
      result[key] = applyMergePatch(result[key], value);
    }
  }
  return result;
}

interface JsonPatchOperation {
  op: string;
  path: string;
  value?: unknown;
  from?: string;
}

function parsePointer(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) {
    throw new ApiError(422, 'Invalid', `invalid JSON pointer "${pointer}"`);
  }
  return pointer
    .slice(1)
    .split('/')
    .map(p => p.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function parentOf(doc: unknown, tokens: string[], pointer: string): any {
  let node: any = doc;
  for (const token of tokens.slice(0, -1)) {
    node = Array.isArray(node) ? node[Number(token)] : node?.[token];
    if (node === undefined || node === null || typeof node !== 'object') {
      throw new ApiError(
        422,
        'Invalid',
        `the server rejected our request due to an error in our request: doc is missing path: "${pointer}": missing value`,
      );
    }
  }
  return node;
}

function getAt(doc: unknown, pointer: string): unknown {
  let node: any = doc;
  for (const token of parsePointer(pointer)) {
    node = Array.isArray(node) ? node[Number(token)] : node?.[token];
    if (node === undefined) {
      throw new ApiError(
        422,
        'Invalid',
        `the server rejected our request due to an error in our request: doc is missing path: "${pointer}": missing value`,
      );
    }
  }
  return node;
}

function removeAt(doc: unknown, pointer: string): unknown {
  const tokens = parsePointer(pointer);
  const parent = parentOf(doc, tokens, pointer);
  const last = tokens[tokens.length - 1];
  if (Array.isArray(parent)) {
    const index = Number(last);
    if (!(index >= 0 && index < parent.length)) {
      throw new ApiError(
        422,
        'Invalid',
        `Unable to remove nonexistent key: ${last}: missing value`,
      );
    }
    return parent.splice(index, 1)[0];
  }
  if (!Object.hasOwn(parent, last)) {
    throw new ApiError(
      422,
      'Invalid',
      `Unable to remove nonexistent key: ${last}: missing value`,
    );
  }
  const value = parent[last];
  delete parent[last];
  return value;
}

function addAt(
  doc: unknown,
  pointer: string,
  value: unknown,
  replace: boolean,
): unknown {
  const tokens = parsePointer(pointer);
  if (tokens.length === 0) return value;
  const parent = parentOf(doc, tokens, pointer);
  const last = tokens[tokens.length - 1];
  if (Array.isArray(parent)) {
    const index = last === '-' ? parent.length : Number(last);
    if (!(index >= 0 && index <= parent.length)) {
      throw new ApiError(
        422,
        'Invalid',
        `add operation does not apply: index ${last} out of range`,
      );
    }
    if (replace) parent[index] = value;
    else parent.splice(index, 0, value);
  } else {
    if (replace && !Object.hasOwn(parent, last)) {
      throw new ApiError(
        422,
        'Invalid',
        `the server rejected our request due to an error in our request: replace operation does not apply: doc is missing key: ${pointer}: missing value`,
      );
    }
    parent[last] = value;
  }
  return doc;
}

/** Applies a JSON patch (a list of operations) to a copy of the document. */
export function applyJsonPatch(
  document: unknown,
  operations: unknown,
): unknown {
  if (!Array.isArray(operations)) {
    throw new ApiError(
      400,
      'BadRequest',
      'json: cannot unmarshal object into Go value of type jsonpatch.Patch',
    );
  }
  let doc: unknown = structuredClone(document);
  for (const raw of operations as JsonPatchOperation[]) {
    const value = structuredClone(raw.value);
    switch (raw.op) {
      case 'add':
        doc = addAt(doc, raw.path, value, false);
        break;
      case 'replace':
        doc = addAt(doc, raw.path, value, true);
        break;
      case 'remove':
        removeAt(doc, raw.path);
        break;
      case 'move': {
        const moved = removeAt(doc, raw.from ?? '');
        doc = addAt(doc, raw.path, moved, false);
        break;
      }
      case 'copy':
        doc = addAt(
          doc,
          raw.path,
          structuredClone(getAt(doc, raw.from ?? '')),
          false,
        );
        break;
      case 'test':
        if (JSON.stringify(getAt(doc, raw.path)) !== JSON.stringify(value)) {
          throw new ApiError(
            422,
            'Invalid',
            `testing value ${raw.path} failed: test failed`,
          );
        }
        break;
      default:
        throw new ApiError(422, 'Invalid', `Unexpected kind: ${raw.op}`);
    }
  }
  return doc;
}
