import { ServiceIndex } from './ServiceIndex';

describe('ServiceIndex', () => {
  // slots 0..999: every third has no service, the others one of 40 services given out of order
  const serviceOf = (slot: number) => (slot % 3 === 0 ? null : `svc-${(slot * 7919) % 40}`);
  const index = ServiceIndex.of(1000, serviceOf);

  it('finds every slot of each service, in slot order, and no other', () => {
    for (let n = 0; n < 40; n++) {
      const service = `svc-${n}`;
      const found: number[] = [];
      index.forEach(service, slot => found.push(slot));
      const expected = Array.from({ length: 1000 }, (_, slot) => slot).filter(
        slot => serviceOf(slot) === service,
      );
      expect(found).toEqual(expected);
    }
  });

  it('says the service of each slot, and lists the services sorted', () => {
    for (let slot = 0; slot < 1000; slot++) expect(index.serviceOf(slot)).toBe(serviceOf(slot));
    expect(index.serviceOf(5000)).toBeNull();
    expect(index.services).toEqual(Array.from(new Set(index.services)).sort());
    expect(index.services.length).toBe(40);
  });

  it('visits nothing for a service it does not have', () => {
    const visit = jest.fn();
    index.forEach('svc-40', visit);
    index.forEach('', visit);
    ServiceIndex.empty().forEach('svc-1', visit);
    expect(visit).not.toHaveBeenCalled();
  });
});
