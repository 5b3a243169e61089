import type { StoredEvent } from './fluxEvents';
import { RecentEvents } from './RecentEvents';

function event(id: string, at: number): StoredEvent {
  return { id, at, type: 'Normal', reason: 'ReconciliationSucceeded', message: id } as StoredEvent;
}
const ids = (events: RecentEvents, key: string) => (events.get(key) ?? []).map(e => e.id);

describe('RecentEvents', () => {
  it('keeps the newest per object first, replaces an event by id, and drops the oldest of the cluster past its bound', () => {
    const events = new RecentEvents(2, 3);
    events.add('a', event('a1', 1));
    events.add('a', event('a2', 2));
    events.add('a', event('a3', 3));
    expect(ids(events, 'a')).toEqual(['a3', 'a2']);
    events.add('a', event('a2', 4)); // the same Event, occurring again
    expect(ids(events, 'a')).toEqual(['a2', 'a3']);
    events.add('b', event('b1', 5));
    events.add('c', event('c1', 6));
    // four kept would pass the bound of 3: the one added first of those kept (a3) goes
    expect(ids(events, 'a')).toEqual(['a2']);
    expect([...events].map(([key]) => key).sort()).toEqual(['a', 'b', 'c']);
  });

  it('says whether setting an object’s events changed them, and forgets an object’s events', () => {
    const events = new RecentEvents(5, 100);
    expect(events.set('a', [event('a1', 1)])).toBe(true);
    expect(events.set('a', [event('a1', 1)])).toBe(false);
    events.remove('a');
    expect(events.get('a')).toBeUndefined();
    expect(events.replaceAll([['b', [event('b1', 1)]]])).toEqual(['b']);
    expect(events.replaceAll([['b', [event('b1', 1)]]])).toEqual([]);
  });

  it('files events under the caller’s key string, also for events that came before their object, and keeps its bounds', () => {
    // two equal keys that are different strings, as an event's and a record's key are
    const recordKey = ['eu-1', 'apps', 'Kustomization', 'podinfo'].join('/');
    const eventKey = ['eu-1', 'apps', 'Kustomization', 'podinfo'].join('/');
    const held = new Set<string>();
    const events = new RecentEvents(5, 2, key => (held.has(key) ? recordKey : key));
    events.add(eventKey, event('e1', 1)); // before its object was listed
    held.add(recordKey);
    events.shareKey(recordKey);
    events.add(eventKey, event('e2', 2));
    expect(ids(events, recordKey)).toEqual(['e2', 'e1']);
    expect([...events].map(([key]) => key)).toEqual([recordKey]);
    // the bound still drops the oldest event of the object under its new key
    events.add('other', event('o1', 3));
    expect(ids(events, recordKey)).toEqual(['e2']);
    expect(events.replaceAll([[eventKey, [event('e3', 4)]]])).toEqual([recordKey]);
  });
});
