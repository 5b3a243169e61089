import { parseAllDocuments } from 'yaml';
import { componentsYaml, sampleServices } from './catalogComponents';

describe('sampleServices', () => {
  const objects = [
    ...Array.from({ length: 50 }, (_, i) => ({
      kind: 'Kustomization',
      service: `svc-${String(i).padStart(2, '0')}`,
    })),
    { kind: 'HelmRelease', service: 'checkout' },
    { kind: 'GitRepository', service: 'only-a-source' },
    { kind: 'Kustomization', service: null },
  ];

  it('spreads the sample over the services of reconcilers, with checkout, without duplicates', () => {
    const sample = sampleServices(objects, 10);
    expect(sample).toHaveLength(10);
    expect(sample).toContain('checkout');
    expect(sample.some(s => s.startsWith('svc-0'))).toBe(true);
    expect(sample.some(s => s.startsWith('svc-4'))).toBe(true);
    expect(sample).not.toContain('only-a-source');
    expect(new Set(sample).size).toBe(10);
    expect(sample).toEqual(sampleServices([...objects].reverse(), 10));
  });

  it('takes every service of a small fleet', () => {
    expect(sampleServices(objects.slice(0, 3), 10)).toEqual([
      'svc-00',
      'svc-01',
      'svc-02',
    ]);
  });
});

describe('componentsYaml', () => {
  it('writes one Component per service, annotated with its kubernetes-id', () => {
    const docs = parseAllDocuments(
      componentsYaml(['checkout', 'payments-api']),
    ).map(d => d.toJS());
    expect(
      docs.map(d => [
        d.kind,
        d.metadata.name,
        d.metadata.annotations['backstage.io/kubernetes-id'],
      ]),
    ).toEqual([
      ['Component', 'checkout', 'checkout'],
      ['Component', 'payments-api', 'payments-api'],
    ]);
  });
});
