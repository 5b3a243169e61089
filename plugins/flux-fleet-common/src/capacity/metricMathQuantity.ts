/**
 * Kubernetes resource quantities (`500m`, `2`, `512Mi`, `1e3`) as numbers, for the container limits a controller's
 * measured CPU and memory are compared with. Pure.
 */

const SUFFIX: Record<string, number> = {
  n: 1e-9,
  u: 1e-6,
  m: 1e-3,
  '': 1,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
};

/**
 * A quantity's value in base units (cores for CPU, bytes for memory); undefined when the text is not a quantity.
 * Numbers are accepted too (a YAML `cpu: 2`).
 */
export function parseQuantity(value: unknown): number | undefined {
  if (typeof value === 'number')
    return Number.isFinite(value) && value >= 0 ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const match =
    /^\+?(\d+\.?\d*|\.\d+)(?:([eE][+-]?\d+)|(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE])?)$/.exec(
      value.trim(),
    );
  if (!match) return undefined;
  const [, digits, exponent, suffix] = match;
  return Number(digits + (exponent ?? '')) * SUFFIX[suffix ?? ''];
}
