import { VersionedMap } from './VersionedMap';

describe('VersionedMap', () => {
  it('changes its version with its content, and only then', () => {
    const map = new VersionedMap<string, number>();
    const versions = [map.version];
    map.set('a', 1);
    versions.push(map.version);
    map.delete('missing');
    expect(map.version).toBe(versions[1]);
    map.delete('a');
    versions.push(map.version);
    map.set('b', 2);
    versions.push(map.version);
    map.clear();
    versions.push(map.version);
    map.clear();
    expect(map.version).toBe(versions[4]);
    expect(new Set(versions).size).toBe(versions.length);
  });

  it('never shares a version with another map, even a new one built with entries', () => {
    const first = new VersionedMap<string, number>();
    const second = new VersionedMap<string, number>([['a', 1]]);
    expect(second.get('a')).toBe(1);
    expect(second.version).not.toBe(first.version);
    expect(new VersionedMap().version).not.toBe(second.version);
  });
});
