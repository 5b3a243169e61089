import {
  entityLabelSelector,
  formatLabelSelector,
  LabelSelectorError,
  matchesLabelSelector,
  matchesLabelSelectorText,
  parseLabelSelector,
  parseLabelSelectorOrThrow,
} from './labelSelector';

const shard1 = { 'sharding.fluxcd.io/key': 'shard1', app: 'payments' };
const shard2 = { 'sharding.fluxcd.io/key': 'shard2' };
const unsharded = { app: 'payments' };

describe('parseLabelSelector', () => {
  it.each([
    ['', []],
    ['   ', []],
    ['app', [{ key: 'app', operator: 'exists', values: [] }]],
    [
      '!sharding.fluxcd.io/key',
      [{ key: 'sharding.fluxcd.io/key', operator: 'doesNotExist', values: [] }],
    ],
    [
      'sharding.fluxcd.io/key=shard1',
      [
        {
          key: 'sharding.fluxcd.io/key',
          operator: 'equals',
          values: ['shard1'],
        },
      ],
    ],
    ['tier==web', [{ key: 'tier', operator: 'equals', values: ['web'] }]],
    ['tier != web', [{ key: 'tier', operator: 'notEquals', values: ['web'] }]],
    ['tier=', [{ key: 'tier', operator: 'equals', values: [''] }]],
    ['tier=in', [{ key: 'tier', operator: 'equals', values: ['in'] }]],
    [
      'sharding.fluxcd.io/key in (shard2, shard1)',
      [
        {
          key: 'sharding.fluxcd.io/key',
          operator: 'in',
          values: ['shard1', 'shard2'],
        },
      ],
    ],
    [
      'env notin (dev,test,dev)',
      [{ key: 'env', operator: 'notIn', values: ['dev', 'test'] }],
    ],
    [
      'replicas>2',
      [{ key: 'replicas', operator: 'greaterThan', values: ['2'] }],
    ],
    [
      'replicas < 10',
      [{ key: 'replicas', operator: 'lessThan', values: ['10'] }],
    ],
    [
      'team=payments, !sharding.fluxcd.io/key,tier in (web)',
      [
        { key: 'team', operator: 'equals', values: ['payments'] },
        { key: 'sharding.fluxcd.io/key', operator: 'doesNotExist', values: [] },
        { key: 'tier', operator: 'in', values: ['web'] },
      ],
    ],
  ])('parses %j', (text, requirements) => {
    expect(parseLabelSelector(text)).toEqual({
      selector: { text, requirements },
    });
  });

  it.each([
    [
      'app=a,',
      "found the end of the selector at position 7, expected a requirement after ','",
    ],
    [',app', "found ',' at position 1, expected a label key"],
    ['app in ()', "the values of 'in' cannot be empty"],
    ['app in a', "found 'a' at position 8, expected '(' after 'in'"],
    [
      'app in (a',
      "found the end of the selector at position 10, expected ',' or ')'",
    ],
    [
      'app = a b',
      "found 'b' at position 9, expected ',' or the end of the selector",
    ],
    ['app > x', "found 'x' at position 7, expected an integer after '>'"],
    [
      '!app=b',
      "found '=' at position 5, expected ',' or the end of the selector after '!app'",
    ],
    ['app=has space', "found 'space' at position 9"],
    ['-app=b', "'-app' is not a valid label key"],
    [
      'Example.COM/app=b',
      "the prefix 'Example.COM' of label key 'Example.COM/app' is not a DNS subdomain",
    ],
    [`app=${'x'.repeat(64)}`, 'is not a valid label value'],
    ['app=a(b', "found '(' at position 6"],
  ])(
    'rejects %j with a message saying what is wrong and where',
    (text, message) => {
      const result = parseLabelSelector(text);
      expect(result.selector).toBeUndefined();
      expect(result.error).toContain(`invalid label selector "${text}"`);
      expect(result.error).toContain(message);
    },
  );

  it('says what it got when given something that is not text', () => {
    expect(parseLabelSelector(42 as unknown as string).error).toBe(
      'a label selector must be text, got number',
    );
  });

  it('throws a LabelSelectorError from the throwing variant', () => {
    expect(() => parseLabelSelectorOrThrow('a in')).toThrow(LabelSelectorError);
    expect(parseLabelSelectorOrThrow('a').requirements).toHaveLength(1);
  });
});

describe('matchesLabelSelector', () => {
  const cases: Array<[string, Record<string, string> | undefined, boolean]> = [
    ['', shard1, true],
    ['', undefined, true],
    ['!sharding.fluxcd.io/key', unsharded, true],
    ['!sharding.fluxcd.io/key', shard1, false],
    ['sharding.fluxcd.io/key', shard1, true],
    ['sharding.fluxcd.io/key', unsharded, false],
    ['sharding.fluxcd.io/key=shard1', shard1, true],
    ['sharding.fluxcd.io/key==shard1', shard2, false],
    ['sharding.fluxcd.io/key=shard1', unsharded, false],
    ['sharding.fluxcd.io/key!=shard1', shard2, true],
    ['sharding.fluxcd.io/key!=shard1', shard1, false],
    // An absent label satisfies != and notin, as in Kubernetes.
    ['sharding.fluxcd.io/key!=shard1', unsharded, true],
    ['sharding.fluxcd.io/key in (shard1,shard2)', shard2, true],
    ['sharding.fluxcd.io/key in (shard1,shard2)', unsharded, false],
    ['sharding.fluxcd.io/key notin (shard1,shard2)', shard2, false],
    ['sharding.fluxcd.io/key notin (shard1,shard2)', unsharded, true],
    ['app=payments,sharding.fluxcd.io/key=shard1', shard1, true],
    ['app=payments,sharding.fluxcd.io/key=shard1', unsharded, false],
    ['tier=', { tier: '' }, true],
    ['tier=', unsharded, false],
    ['replicas>2', { replicas: '3' }, true],
    ['replicas>2', { replicas: '2' }, false],
    ['replicas<2', { replicas: 'two' }, false],
    ['replicas<2', {}, false],
    ['constructor', {}, false],
  ];
  it.each(cases)('%j against %j is %s', (text, labels, expected) => {
    expect(matchesLabelSelector(parseLabelSelectorOrThrow(text), labels)).toBe(
      expected,
    );
    expect(matchesLabelSelectorText(text, labels)).toBe(expected);
  });

  it('matches nothing with a malformed selector, as a controller that cannot parse it watches nothing', () => {
    expect(matchesLabelSelectorText('app in (', unsharded)).toBe(false);
    expect(matchesLabelSelectorText('app in (', {})).toBe(false);
  });
});

describe('entityLabelSelector', () => {
  it('reads backstage.io/kubernetes-label-selector the way Kubernetes parses selectors', () => {
    const result = entityLabelSelector({
      'backstage.io/kubernetes-label-selector': 'app=payments,tier in (web)',
    });
    expect(result?.selector?.requirements).toHaveLength(2);
    expect(
      matchesLabelSelector(result!.selector!, { app: 'payments', tier: 'web' }),
    ).toBe(true);
    expect(matchesLabelSelector(result!.selector!, { app: 'payments' })).toBe(
      false,
    );
  });

  it('is undefined without the annotation', () => {
    expect(
      entityLabelSelector({ 'backstage.io/kubernetes-id': 'x' }),
    ).toBeUndefined();
    expect(entityLabelSelector(undefined)).toBeUndefined();
  });

  it('names the annotation when its selector is malformed', () => {
    expect(
      entityLabelSelector({
        'backstage.io/kubernetes-label-selector': 'app in',
      })?.error,
    ).toMatch(
      /^annotation backstage.io\/kubernetes-label-selector: invalid label selector "app in"/,
    );
  });
});

describe('formatLabelSelector', () => {
  it('writes a canonical form that parses back to the same requirements', () => {
    const text = ' b in (y, x) ,!c, a = 1,d!=2, e notin (z),f>3,g<4,h';
    const selector = parseLabelSelectorOrThrow(text);
    const formatted = formatLabelSelector(selector);
    expect(formatted).toBe('b in (x,y),!c,a=1,d!=2,e notin (z),f>3,g<4,h');
    expect(parseLabelSelectorOrThrow(formatted).requirements).toEqual(
      selector.requirements,
    );
  });
});
