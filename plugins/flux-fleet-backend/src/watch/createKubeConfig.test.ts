import type https from 'node:https';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ClusterConfig } from '../config/FleetConfig';
import { createKubeConfig } from './createKubeConfig';

const kubeconfig = `
apiVersion: v1
kind: Config
clusters:
  - name: sim-a
    cluster: { server: 'http://127.0.0.1:4100' }
contexts:
  - name: sim-a
    context: { cluster: sim-a, user: admin }
users:
  - name: admin
    user: { token: admin-token }
current-context: sim-a
`;

function cluster(partial: Partial<ClusterConfig>): ClusterConfig {
  return {
    name: 'c',
    auth: { type: 'anonymous' },
    skipTLSVerify: false,
    configKey: 'fluxFleet.clusters[0]',
    ...partial,
  };
}

describe('createKubeConfig', () => {
  const dir = mkdtempSync(join(tmpdir(), 'flux-fleet-kubeconfig-'));
  const file = join(dir, 'kubeconfig');
  writeFileSync(file, kubeconfig);

  it('reads a kubeconfig context, with plain http allowed for local simulators', async () => {
    const kc = createKubeConfig(
      cluster({ auth: { type: 'kubeconfig', path: file, context: 'sim-a' } }),
    );
    expect(kc.getCurrentCluster()?.server).toBe('http://127.0.0.1:4100');
    const options: https.RequestOptions = {};
    await kc.applyToHTTPSOptions(options);
    expect(options.headers).toMatchObject({
      Authorization: 'Bearer admin-token',
    });
  });

  it('uses the configured url and token', async () => {
    const kc = createKubeConfig(
      cluster({
        url: 'https://api.example:6443',
        auth: { type: 'serviceAccountToken', token: 'sa-token' },
      }),
    );
    expect(kc.getCurrentCluster()?.server).toBe('https://api.example:6443');
    expect(kc.getCurrentCluster()?.skipTLSVerify).toBe(false);
  });

  it('names the key of a missing kubeconfig file or context', () => {
    expect(() =>
      createKubeConfig(
        cluster({ auth: { type: 'kubeconfig', path: join(dir, 'nope') } }),
      ),
    ).toThrow(
      `Invalid Flux Fleet configuration at 'fluxFleet.clusters[0].kubeconfig.path': the kubeconfig file ${join(
        dir,
        'nope',
      )} does not exist`,
    );
    expect(() =>
      createKubeConfig(
        cluster({ auth: { type: 'kubeconfig', path: file, context: 'prod' } }),
      ),
    ).toThrow(
      `'fluxFleet.clusters[0].kubeconfig.context': ${file} has no context 'prod' (it has: sim-a)`,
    );
  });

  it('names the key of a missing CA file', () => {
    expect(() =>
      createKubeConfig(cluster({ url: 'https://a', caFile: join(dir, 'ca.pem') })),
    ).toThrow("'fluxFleet.clusters[0].caFile': the file");
  });
});
