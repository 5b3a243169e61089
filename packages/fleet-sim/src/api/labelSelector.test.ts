import {
  matchesLabels,
  parseLabelSelector,
  SelectorParseError,
} from './labelSelector';

const labels = {
  'sharding.fluxcd.io/key': 'shard1',
  'toolkit.fluxcd.io/tenant': 'payments',
  'backstage.io/kubernetes-id': 'checkout',
};

function matches(
  selector: string,
  l: Record<string, string> | undefined = labels,
): boolean {
  return matchesLabels(parseLabelSelector(selector), l);
}

describe('label selectors', () => {
  it('selects everything with an empty selector', () => {
    expect(matches('')).toBe(true);
    expect(matches('   ', undefined)).toBe(true);
  });

  it('supports =, == and !=', () => {
    expect(matches('sharding.fluxcd.io/key=shard1')).toBe(true);
    expect(matches('sharding.fluxcd.io/key==shard1')).toBe(true);
    expect(matches('sharding.fluxcd.io/key=shard2')).toBe(false);
    expect(matches('sharding.fluxcd.io/key!=shard2')).toBe(true);
    // != also matches objects that lack the label, as in Kubernetes
    expect(matches('team!=payments')).toBe(true);
  });

  it('supports in and notin with spaces', () => {
    expect(matches('sharding.fluxcd.io/key in (shard1, shard2)')).toBe(true);
    expect(matches('sharding.fluxcd.io/key in (shard2,shard3)')).toBe(false);
    expect(matches('sharding.fluxcd.io/key notin (shard2)')).toBe(true);
    expect(matches('missing notin (a)')).toBe(true);
    expect(matches('missing in (a)')).toBe(false);
  });

  it('supports exists and !key', () => {
    expect(matches('toolkit.fluxcd.io/tenant')).toBe(true);
    expect(matches('!sharding.fluxcd.io/key')).toBe(false);
    expect(matches('!sharding.fluxcd.io/key', { other: 'x' })).toBe(true);
    expect(matches('sharding.fluxcd.io/key', {})).toBe(false);
  });

  it('requires every comma-separated requirement', () => {
    expect(
      matches(
        'toolkit.fluxcd.io/tenant=payments,sharding.fluxcd.io/key in (shard1,shard3)',
      ),
    ).toBe(true);
    expect(
      matches('toolkit.fluxcd.io/tenant=payments,!sharding.fluxcd.io/key'),
    ).toBe(false);
  });

  it('rejects what kube-apiserver rejects', () => {
    expect(() => parseLabelSelector('a in ()')).toThrow(SelectorParseError);
    expect(() => parseLabelSelector('a=b,')).toThrow(SelectorParseError);
    expect(() => parseLabelSelector('a in (b')).toThrow(SelectorParseError);
    expect(() => parseLabelSelector('-bad-key=x')).toThrow(/invalid label key/);
    expect(() => parseLabelSelector('a=b c')).toThrow(SelectorParseError);
  });
});
