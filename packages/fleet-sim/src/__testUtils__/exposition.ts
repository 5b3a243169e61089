/** A strict reader of the Prometheus text format for tests, and a sum over its samples. */

/** One sample. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** A strict reader of the text format: every non-comment line must be a sample. */
export function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) throw new Error(`not a sample: ${line.slice(0, 120)}`);
    const labels: Record<string, string> = {};
    for (const pair of (m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g))
      labels[pair[1]] = pair[2];
    const raw = m[3];
    const special: Record<string, number> = {
      '+Inf': Infinity,
      '-Inf': -Infinity,
    };
    const number = raw in special ? special[raw] : Number(raw);
    if (Number.isNaN(number) && raw !== 'NaN')
      throw new Error(`not a value: ${line}`);
    samples.push({ name: m[1], labels, value: number });
  }
  return samples;
}

/** The sum of the samples of a name whose labels include these. */
export function value(
  samples: Sample[],
  name: string,
  labels: Record<string, string> = {},
): number {
  return samples
    .filter(
      s =>
        s.name === name &&
        Object.entries(labels).every(([k, v]) => s.labels[k] === v),
    )
    .reduce((sum, s) => sum + s.value, 0);
}
