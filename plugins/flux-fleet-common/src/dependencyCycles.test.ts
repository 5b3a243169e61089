import { findCycles } from './dependencyCycles';

function cyclesOf(edges: Record<string, string[]>): string[][] {
  return findCycles(Object.keys(edges), n => edges[n] ?? []);
}

describe('findCycles', () => {
  it('finds nothing in a chain or a diamond', () => {
    expect(cyclesOf({ a: ['b'], b: ['c'], c: [] })).toEqual([]);
    expect(cyclesOf({ a: ['b', 'c'], b: ['d'], c: ['d'], d: [] })).toEqual([]);
  });

  it('finds a two-node cycle and leaves the object that only depends on it out', () => {
    expect(
      cyclesOf({ app: ['infra'], infra: ['crds'], crds: ['infra'] }),
    ).toEqual([['infra', 'crds']]);
  });

  it('finds an object that depends on itself', () => {
    expect(cyclesOf({ a: ['a'], b: ['a'] })).toEqual([['a']]);
  });

  it('finds separate cycles separately', () => {
    expect(
      cyclesOf({ a: ['b'], b: ['a'], c: ['d'], d: ['e'], e: ['c'] }),
    ).toEqual([
      ['a', 'b'],
      ['c', 'd', 'e'],
    ]);
  });

  it('ignores edges to nodes that do not exist', () => {
    expect(cyclesOf({ a: ['missing'], b: [] })).toEqual([]);
  });

  it('handles a chain of 100 000 dependencies without overflowing the stack', () => {
    const n = 100_000;
    const nodes = Array.from({ length: n }, (_, i) => i);
    const cycles = findCycles(nodes, i => (i + 1 < n ? [i + 1] : [0]));
    expect(cycles).toHaveLength(1);
    expect(cycles[0]).toHaveLength(n);
  });
});
