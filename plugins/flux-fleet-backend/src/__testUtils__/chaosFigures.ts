import { appendFileSync } from 'node:fs';

/** One figure of the chaos suite: a scenario, what was measured, the value and where it came from. */
export interface ChaosFigure {
  scenario: string;
  figure: string;
  value: string;
  /** `measured` (a clock or a count in this run) or a short note. */
  source: string;
}

/** Records a figure: printed at the end by `scripts/chaos.sh` from `FLUX_FLEET_CHAOS_FIGURES` (JSON lines). */
export function recordFigure(figure: ChaosFigure): void {
  const file = process.env.FLUX_FLEET_CHAOS_FIGURES;
  if (file) appendFileSync(file, `${JSON.stringify(figure)}\n`);
  // eslint-disable-next-line no-console
  console.log(`${figure.scenario}: ${figure.figure} = ${figure.value} (${figure.source})`);
}

/** The p-th percentile of sorted numbers (nearest rank). */
export function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}
