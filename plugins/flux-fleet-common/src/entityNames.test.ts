import {
  clusterEntityName,
  entityLabels,
  entityLabelValue,
  instanceEntityName,
  isValidEntityName,
  objectEntityName,
  shardEntityName,
  shortHash,
} from './entityNames';
import type { FluxObjectRef } from './types';

const ref = (over: Partial<FluxObjectRef> = {}): FluxObjectRef => ({
  cluster: 'prod-eu',
  namespace: 'team-payments',
  kind: 'Kustomization',
  name: 'payments-api',
  ...over,
});

describe('entity names', () => {
  it('are readable for ordinary identities', () => {
    expect(clusterEntityName('prod-eu')).toBe('prod-eu');
    expect(instanceEntityName('prod-eu', 'flux-system')).toBe(
      'prod-eu.flux-system',
    );
    expect(shardEntityName('prod-eu', 'flux-system', 'shard1')).toBe(
      'prod-eu.flux-system.shard1',
    );
    expect(objectEntityName(ref())).toBe(
      'prod-eu.team-payments.kustomization.payments-api',
    );
    expect(
      objectEntityName(ref({ kind: 'HelmRelease', name: 'podinfo.v1' })),
    ).toBe('prod-eu.team-payments.helmrelease.podinfo.v1');
  });

  it.each<[string, string]>([
    [
      'a cluster name with spaces and slashes',
      clusterEntityName('Prod EU / west'),
    ],
    [
      'a shard named by a selector with = and spaces',
      shardEntityName('prod-eu', 'flux-system', 'team=payments,tier in (web)'),
    ],
    [
      'a shard of several values',
      shardEntityName('prod-eu', 'flux-system', 'shard1+shard2'),
    ],
    [
      'a very long object name',
      objectEntityName(ref({ name: `payments-${'x'.repeat(80)}` })),
    ],
    ['a long cluster name', clusterEntityName(`cluster-${'a'.repeat(100)}`)],
    ['a name of separators only', clusterEntityName('---')],
    ['an empty cluster', clusterEntityName('')],
    ['non-Latin letters', clusterEntityName('クラスタ')],
  ])('stay valid for %s', (_, name) => {
    expect(isValidEntityName(name)).toBe(true);
  });

  it('keep readable prefixes and append a hash when they must shorten', () => {
    const name = objectEntityName(ref({ name: `payments-${'x'.repeat(80)}` }));
    expect(name).toHaveLength(63);
    expect(name).toMatch(
      /^prod-eu\.team-payments\.kustomization\.payments-x+-[0-9a-f]{10}$/,
    );
  });

  it('never give two identities the same name when sanitising would merge them', () => {
    const names = [
      shardEntityName('prod-eu', 'flux-system', 'team=payments'),
      shardEntityName('prod-eu', 'flux-system', 'team-payments'),
      shardEntityName('prod-eu', 'flux-system', 'team payments'),
      shardEntityName('prod.eu', 'flux-system', 'team-payments'),
      shardEntityName('prod', 'eu.flux-system', 'team-payments'),
      // A shard whose name holds a dot cannot pass for the Kustomization flux-system/x either.
      shardEntityName('prod-eu', 'flux-system', 'kustomization.x'),
      objectEntityName(ref({ namespace: 'flux-system', name: 'x' })),
    ];
    expect(new Set(names).size).toBe(names.length);
  });

  it('are deterministic', () => {
    expect(shardEntityName('prod-eu', 'flux-system', 'shard1+shard2')).toBe(
      shardEntityName('prod-eu', 'flux-system', 'shard1+shard2'),
    );
    expect(shortHash('prod-eu/flux-system')).toBe(
      shortHash('prod-eu/flux-system'),
    );
    expect(shortHash('a')).not.toBe(shortHash('b'));
  });

  it('hash with FNV-1a 64 (known test vectors)', () => {
    // FNV-1a 64 of "" is cbf29ce484222325 and of "a" af63dc4c8601ec8c (the published test vectors).
    expect(shortHash('')).toBe('cbf29ce484');
    expect(shortHash('a')).toBe('af63dc4c86');
  });
});

describe('isValidEntityName', () => {
  it.each([
    ['a', true],
    ['prod-eu.flux_system', true],
    ['-a', false],
    ['a-', false],
    ['a b', false],
    ['', false],
    ['x'.repeat(63), true],
    ['x'.repeat(64), false],
  ])('%j: %s', (name, valid) => {
    expect(isValidEntityName(name)).toBe(valid);
  });
});

describe('entity labels', () => {
  it('give sanitised labels and exact annotations, leaving out absent values', () => {
    expect(
      entityLabels({
        cluster: 'prod-eu',
        instance: 'flux-system',
        shard: 'team=payments',
        tenant: null,
        namespace: 'team-payments',
        kind: 'Kustomization',
      }),
    ).toEqual({
      labels: {
        'flux-fleet.io/cluster': 'prod-eu',
        'flux-fleet.io/instance': 'flux-system',
        'flux-fleet.io/kind': 'Kustomization',
        'flux-fleet.io/namespace': 'team-payments',
        'flux-fleet.io/shard': entityLabelValue('team=payments'),
      },
      annotations: {
        'flux-fleet.io/cluster': 'prod-eu',
        'flux-fleet.io/instance': 'flux-system',
        'flux-fleet.io/kind': 'Kustomization',
        'flux-fleet.io/namespace': 'team-payments',
        'flux-fleet.io/shard': 'team=payments',
      },
    });
    expect(entityLabelValue('team=payments')).toMatch(
      /^team-payments-[0-9a-f]{10}$/,
    );
    expect(entityLabelValue('shard1')).toBe('shard1');
    expect(entityLabelValue('')).toBe('');
  });
});
