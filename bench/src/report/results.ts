/** The results of one `make bench` run, as written to `bench/results/latest.json`. */
import type { IngestResult } from '../ingest/runIngest';
import type { MachineDescription } from '../machine';
import type { BenchOptions } from '../options';
import type { ProductResult } from '../product/runProduct';

/** Everything one run measured, with the machine and the options it ran with. */
export interface BenchResults {
  /** ISO time of the start. */
  date: string;
  /** The flags as given, e.g. `--size M`. */
  command: string;
  options: BenchOptions;
  machine: MachineDescription;
  durationSeconds: number;
  ingest: IngestResult[];
  product?: ProductResult;
  /** Parts that failed, with why; a run with failures writes neither latest.json nor the README. */
  failures: Array<{ part: string; message: string }>;
}
