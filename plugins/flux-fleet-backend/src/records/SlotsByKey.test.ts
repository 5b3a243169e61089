import { SlotsByKey } from './SlotsByKey';

/** A SlotsByKey over an array of keys, and a Map kept alongside as the reference. */
function tableWithReference() {
  const keys: Array<string | undefined> = [];
  const table = new SlotsByKey(slot => keys[slot]);
  const reference = new Map<string, number>();
  return {
    table,
    reference,
    add(key: string) {
      const slot = keys.length;
      keys.push(key);
      table.add(key, slot);
      reference.set(key, slot);
    },
    remove(key: string) {
      const slot = reference.get(key)!;
      expect(table.delete(key)).toBe(true);
      keys[slot] = undefined;
      reference.delete(key);
    },
    /** The keys the table answers differently from the reference, with both answers; and the two sizes. */
    differences(probe: string[]) {
      return {
        keys: probe
          .map(key => [key, table.get(key), reference.get(key)])
          .filter(([, got, want]) => got !== want),
        sizes: [table.size, reference.size],
      };
    },
  };
}

describe('SlotsByKey', () => {
  it('finds every key filed, and none other', () => {
    const t = tableWithReference();
    const all = Array.from({ length: 5000 }, (_, i) => `eu-1/apps/Kustomization/app-${i}`);
    all.forEach(key => t.add(key));
    expect(
      t.differences([...all, 'eu-1/apps/Kustomization/app-5000', '', 'eu-1/apps/HelmRelease/app-1']),
    ).toEqual({ keys: [], sizes: [5000, 5000] });
  });

  it('keeps finding the rest after deletions, whatever order they come in (runs that wrap around the end too)', () => {
    // a small table, so keys share buckets and runs cross the table's end; deletions from every position
    for (let seed = 1; seed <= 20; seed++) {
      const t = tableWithReference();
      const all = Array.from({ length: 7 }, (_, i) => `k${seed}-${i}`);
      all.forEach(key => t.add(key));
      const order = [...all].sort((a, b) => ((a.charCodeAt(a.length - 1) * seed) % 7) - ((b.charCodeAt(b.length - 1) * seed) % 7));
      for (const key of order) {
        t.remove(key);
        expect(t.differences(all).keys).toEqual([]);
      }
      expect(t.table.delete('absent')).toBe(false);
    }
  });

  it('grows, and a key deleted and filed again (at another slot) is found there', () => {
    const t = tableWithReference();
    const all = Array.from({ length: 300 }, (_, i) => `c/ns/GitRepository/r${i}`);
    all.forEach(key => t.add(key));
    for (let i = 0; i < 300; i += 3) t.remove(all[i]);
    for (let i = 0; i < 300; i += 6) t.add(all[i]);
    expect(t.differences(all)).toEqual({ keys: [], sizes: [250, 250] });
  });
});
