import { readSimulatedClusters } from './kubeconfig';

const KUBECONFIG = `
apiVersion: v1
kind: Config
clusters:
  - name: prod-eu-west-1
    cluster:
      server: https://127.0.0.1:32817
      certificate-authority-data: Q0E=
  - name: dev-1
    cluster:
      server: http://127.0.0.1:40000
users:
  - { name: prod-eu-west-1-admin, user: { token: a1 } }
  - { name: prod-eu-west-1-readonly, user: { token: r1 } }
  - { name: dev-1-admin, user: { token: a2 } }
  - { name: dev-1-readonly, user: { token: r2 } }
contexts:
  - { name: prod-eu-west-1, context: { cluster: prod-eu-west-1, user: prod-eu-west-1-admin } }
  - { name: prod-eu-west-1-readonly, context: { cluster: prod-eu-west-1, user: prod-eu-west-1-readonly } }
  - { name: dev-1, context: { cluster: dev-1, user: dev-1-admin } }
  - { name: dev-1-readonly, context: { cluster: dev-1, user: dev-1-readonly } }
`;

describe('readSimulatedClusters', () => {
  it('gives each cluster once, sorted, with its CA and both tokens', () => {
    expect(readSimulatedClusters(KUBECONFIG)).toEqual([
      {
        name: 'dev-1',
        server: 'http://127.0.0.1:40000',
        adminToken: 'a2',
        readOnlyToken: 'r2',
      },
      {
        name: 'prod-eu-west-1',
        server: 'https://127.0.0.1:32817',
        caData: 'Q0E=',
        adminToken: 'a1',
        readOnlyToken: 'r1',
      },
    ]);
  });

  it('names the cluster whose read-only user is missing', () => {
    const broken = KUBECONFIG.replace(
      / {2}- \{ name: dev-1-readonly, context.*\n/,
      '',
    );
    expect(() => readSimulatedClusters(broken)).toThrow(/cluster dev-1 /);
  });
});
