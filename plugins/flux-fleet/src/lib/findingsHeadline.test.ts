import { FindingGroup, findingsHeadline } from './findingsHeadline';

describe('findingsHeadline', () => {
  it.each<[string, FindingGroup[], string]>([
    ['none', [], 'No findings.'],
    [
      'errors first, only the error groups named',
      [
        { type: 'orphan', severity: 'error', count: 4 },
        { type: 'missing-source', severity: 'error', count: 1 },
        { type: 'boundary-none', severity: 'warning', count: 150 },
      ],
      '5 errors and 150 warnings; fix first: 4 objects no controller watches, 1 missing source.',
    ],
    [
      'warnings only, one of a kind',
      [{ type: 'cross-tenant-reference', severity: 'warning', count: 1 }],
      'No errors; 1 warning: 1 reference to another tenant.',
    ],
    [
      'three named, the rest counted; notes counted too',
      [
        { type: 'missing-dependency', severity: 'error', count: 3 },
        { type: 'dependency-cycle', severity: 'error', count: 2 },
        { type: 'contested', severity: 'error', count: 1 },
        { type: 'upgrade-blocked', severity: 'error', count: 1 },
        { type: 'deprecated-api', severity: 'warning', count: 2_000 },
        { type: 'shard-over-capacity', severity: 'info', count: 1 },
      ],
      '7 errors, 2,000 warnings and 1 note; fix first: 3 missing dependencies, 2 objects on dependency cycles, 1 object several controllers reconcile and 1 more.',
    ],
  ])('%s', (_, groups, expected) => {
    expect(findingsHeadline(groups)).toBe(expected);
  });
});
