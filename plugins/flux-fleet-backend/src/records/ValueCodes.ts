import type { CodeColumn } from './columns';

/** A small number stands for each distinct value of a column; the table of values is per cluster. */
export class ValueCodes {
  private readonly codes = new Map<string, number>();
  /** Code → value; code 0 is "no value". */
  private values: Array<string | undefined> = [undefined];

  code(value: string | undefined): number {
    if (value === undefined) return 0;
    let code = this.codes.get(value);
    if (code === undefined) {
      code = this.values.length;
      this.values.push(value);
      this.codes.set(value, code);
    }
    return code;
  }

  value(code: number): string | undefined {
    return this.values[code];
  }

  get size(): number {
    return this.values.length;
  }

  /** Keeps only the values still used; returns the old code → new code mapping. */
  compact(used: CodeColumn, count: number): Uint32Array {
    const remap = new Uint32Array(this.values.length);
    const values: Array<string | undefined> = [undefined];
    this.codes.clear();
    for (let i = 0; i < count; i++) {
      const old = used[i];
      if (old === 0 || remap[old] !== 0) continue;
      remap[old] = values.length;
      this.codes.set(this.values[old]!, values.length);
      values.push(this.values[old]);
    }
    this.values = values;
    return remap;
  }
}
