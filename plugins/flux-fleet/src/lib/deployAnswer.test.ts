import { compareEnvironments, environmentOf } from './deployAnswer';

describe('environmentOf', () => {
  it.each<[string, string | undefined, string]>([
    ['prod-eu-west-1', 'production', 'production'],
    ['cluster-7', 'staging', 'staging'],
    ['prod-eu-west-1', undefined, 'prod'],
    ['eu-stg-2', undefined, 'staging'],
    ['lab', undefined, 'lab'],
  ])('%s configured as %s is in %s', (cluster, environment, expected) => {
    expect(environmentOf(cluster, { name: cluster, environment })).toBe(
      expected,
    );
  });
});

describe('compareEnvironments', () => {
  it('orders configured and guessed environments the way a release goes through them, others after by name', () => {
    expect(
      ['production', 'edge', 'staging', 'development', 'qa', 'prod'].sort(
        compareEnvironments,
      ),
    ).toEqual(['development', 'qa', 'staging', 'prod', 'production', 'edge']);
  });
});
