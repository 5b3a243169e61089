/**
 * The JSONPath subset CRD printer columns use: `.a.b`, `.a[0]`, `.a[*].b` and filters such as
 * `.status.conditions[?(@.type=="Ready")].status`. Returns every value the path selects.
 */

type Step =
  | { kind: 'field'; name: string }
  | { kind: 'index'; index: number }
  | { kind: 'all' }
  | { kind: 'filter'; path: string[]; value: string };

function parse(path: string): Step[] {
  const steps: Step[] = [];
  let rest = path.trim();
  if (rest.startsWith('{') && rest.endsWith('}')) rest = rest.slice(1, -1);
  const patterns: Array<[RegExp, (m: RegExpExecArray) => Step]> = [
    [/^\.([A-Za-z0-9_-]+)/, m => ({ kind: 'field', name: m[1] })],
    [/^\[(\d+)\]/, m => ({ kind: 'index', index: Number(m[1]) })],
    [/^\[\*\]/, () => ({ kind: 'all' })],
    [
      /^\[\?\(@((?:\.[A-Za-z0-9_-]+)+)\s*==\s*["']([^"']*)["']\)\]/,
      m => ({ kind: 'filter', path: m[1].slice(1).split('.'), value: m[2] }),
    ],
  ];
  while (rest.length > 0) {
    let matched: RegExpExecArray | null = null;
    for (const [pattern, step] of patterns) {
      matched = pattern.exec(rest);
      if (matched) {
        steps.push(step(matched));
        break;
      }
    }
    if (!matched)
      throw new Error(`unsupported JSONPath "${path}" at "${rest}"`);
    rest = rest.slice(matched[0].length);
  }
  return steps;
}

const cache = new Map<string, Step[]>();

/** Every value `path` selects in `data`. */
export function evaluateJsonPath(data: unknown, path: string): unknown[] {
  let steps = cache.get(path);
  if (!steps) {
    steps = parse(path);
    cache.set(path, steps);
  }
  let current: unknown[] = [data];
  for (const step of steps) {
    const next: unknown[] = [];
    for (const node of current) {
      if (node === null || node === undefined) continue;
      if (step.kind === 'field') {
        if (typeof node === 'object' && !Array.isArray(node)) {
          const value = (node as Record<string, unknown>)[step.name];
          if (value !== undefined) next.push(value);
        }
      } else if (step.kind === 'index') {
        if (Array.isArray(node) && step.index < node.length)
          next.push(node[step.index]);
      } else if (step.kind === 'all') {
        if (Array.isArray(node)) next.push(...node);
      } else if (Array.isArray(node)) {
        for (const item of node) {
          let value: any = item;
          for (const p of step.path) value = value?.[p];
          if (value !== undefined && String(value) === step.value)
            next.push(item);
        }
      }
    }
    current = next;
  }
  return current;
}
