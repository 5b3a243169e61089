/**
 * A complete Flux install, of the kind `flux install --export` prints, applied whole with the real kubectl
 * (validation on) to an empty simulated cluster. The CRDs are the real Flux CRDs of the shared folder
 * (`FLUX_FLEET_SHARED`, default /work/shared): without them, or without kubectl, the test is skipped and says so.
 */
import { execFile } from 'node:child_process';
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFleetSim, type FleetSim } from './fleetSim';
import { LATEST_FLUX_RELEASE } from './api/fluxReleases';

const KUBECTL = process.env.KUBECTL ?? '/usr/bin/kubectl';
const CRDS = join(process.env.FLUX_FLEET_SHARED ?? '/work/shared', 'crds');
const present = existsSync(KUBECTL) && existsSync(CRDS);

const CONTROLLERS = [
  'source-controller',
  'kustomize-controller',
  'helm-controller',
  'notification-controller',
] as const;

/** The non-CRD part of `flux install --export`, written as Flux's install manifests are (no version label). */
function installManifests(): string[] {
  const ns = 'flux-system';
  const labels = [
    '    app.kubernetes.io/instance: flux-system',
    '    app.kubernetes.io/part-of: flux',
  ];
  const docs: string[] = [
    [
      'apiVersion: v1',
      'kind: Namespace',
      'metadata:',
      `  name: ${ns}`,
      '  labels:',
      ...labels,
      '    pod-security.kubernetes.io/warn: restricted',
    ].join('\n'),
    [
      'apiVersion: networking.k8s.io/v1',
      'kind: NetworkPolicy',
      'metadata:',
      '  name: allow-egress',
      `  namespace: ${ns}`,
      '  labels:',
      ...labels,
      'spec:',
      '  egress:',
      '  - {}',
      '  ingress:',
      '  - from:',
      '    - podSelector: {}',
      '  podSelector: {}',
      '  policyTypes:',
      '  - Ingress',
      '  - Egress',
    ].join('\n'),
    [
      'apiVersion: rbac.authorization.k8s.io/v1',
      'kind: ClusterRole',
      'metadata:',
      '  name: crd-controller-flux-system',
      '  labels:',
      ...labels,
      'rules:',
      '- apiGroups:',
      '  - source.toolkit.fluxcd.io',
      '  resources:',
      '  - "*"',
      '  verbs:',
      '  - "*"',
    ].join('\n'),
    [
      'apiVersion: rbac.authorization.k8s.io/v1',
      'kind: ClusterRoleBinding',
      'metadata:',
      '  name: cluster-reconciler-flux-system',
      '  labels:',
      ...labels,
      'roleRef:',
      '  apiGroup: rbac.authorization.k8s.io',
      '  kind: ClusterRole',
      '  name: cluster-admin',
      'subjects:',
      '- kind: ServiceAccount',
      '  name: kustomize-controller',
      `  namespace: ${ns}`,
    ].join('\n'),
    [
      'apiVersion: rbac.authorization.k8s.io/v1',
      'kind: Role',
      'metadata:',
      '  name: leader-election',
      `  namespace: ${ns}`,
      'rules:',
      '- apiGroups:',
      '  - coordination.k8s.io',
      '  resources:',
      '  - leases',
      '  verbs:',
      '  - get',
    ].join('\n'),
    [
      'apiVersion: rbac.authorization.k8s.io/v1',
      'kind: RoleBinding',
      'metadata:',
      '  name: leader-election',
      `  namespace: ${ns}`,
      'roleRef:',
      '  apiGroup: rbac.authorization.k8s.io',
      '  kind: Role',
      '  name: leader-election',
      'subjects:',
      '- kind: ServiceAccount',
      '  name: source-controller',
      `  namespace: ${ns}`,
    ].join('\n'),
    [
      'apiVersion: v1',
      'kind: ConfigMap',
      'metadata:',
      '  name: flux-settings',
      `  namespace: ${ns}`,
      'data:',
      '  logLevel: info',
    ].join('\n'),
  ];
  for (const name of CONTROLLERS) {
    const tag = LATEST_FLUX_RELEASE.controllerTags[name];
    docs.push(
      [
        'apiVersion: v1',
        'kind: ServiceAccount',
        'metadata:',
        `  name: ${name}`,
        `  namespace: ${ns}`,
        '  labels:',
        ...labels,
        `    app.kubernetes.io/component: ${name}`,
      ].join('\n'),
      [
        'apiVersion: v1',
        'kind: Service',
        'metadata:',
        `  name: ${name.replace('-controller', '')}`,
        `  namespace: ${ns}`,
        '  labels:',
        ...labels,
        `    app.kubernetes.io/component: ${name}`,
        'spec:',
        '  ports:',
        '  - name: http',
        '    port: 80',
        '    protocol: TCP',
        '    targetPort: http',
        '  selector:',
        `    app: ${name}`,
        '  type: ClusterIP',
      ].join('\n'),
      [
        'apiVersion: apps/v1',
        'kind: Deployment',
        'metadata:',
        `  name: ${name}`,
        `  namespace: ${ns}`,
        '  labels:',
        ...labels,
        `    app.kubernetes.io/component: ${name}`,
        '    control-plane: controller',
        'spec:',
        '  replicas: 1',
        '  selector:',
        '    matchLabels:',
        `      app: ${name}`,
        '  template:',
        '    metadata:',
        '      labels:',
        `        app: ${name}`,
        '    spec:',
        `      serviceAccountName: ${name}`,
        '      containers:',
        '      - name: manager',
        `        image: ghcr.io/fluxcd/${name}:${tag}`,
        '        args:',
        '        - --events-addr=http://notification-controller.flux-system.svc.cluster.local./',
        '        - --watch-all-namespaces=true',
        '        ports:',
        '        - containerPort: 8080',
        '          name: http-prom',
        '          protocol: TCP',
        '        resources:',
        '          limits:',
        '            cpu: 1000m',
        '            memory: 1Gi',
      ].join('\n'),
    );
  }
  return docs;
}

(present ? describe : describe.skip)(
  present
    ? 'kubectl apply of a complete Flux install'
    : `kubectl apply of a complete Flux install (skipped: needs kubectl at ${KUBECTL} and the Flux CRDs at ${CRDS}; set KUBECTL / FLUX_FLEET_SHARED to run)`,
  () => {
    let sim: FleetSim;
    let home: string;

    function kubectl(
      args: string[],
    ): Promise<{ code: number; stdout: string; stderr: string }> {
      return new Promise(resolve => {
        execFile(
          KUBECTL,
          ['--context', sim.clusters[0].name, ...args],
          {
            env: {
              ...process.env,
              HOME: home,
              KUBECONFIG: join(home, 'kubeconfig'),
            },
            timeout: 60_000,
            maxBuffer: 16 * 1024 * 1024,
          },
          (error, stdout, stderr) => {
            let code = 0;
            if (error) code = typeof error.code === 'number' ? error.code : 1;
            resolve({ code, stdout, stderr });
          },
        );
      });
    }

    beforeAll(async () => {
      sim = await startFleetSim({ clusters: 1, empty: true, tls: true });
      home = mkdtempSync(join(tmpdir(), 'fleet-sim-install-'));
      sim.writeKubeconfig(join(home, 'kubeconfig'));
    });
    afterAll(async () => {
      await sim?.close();
      if (home) rmSync(home, { recursive: true, force: true });
    });

    it('applies CRDs, Namespace, ServiceAccounts, Services, Deployments, NetworkPolicies and RBAC, validation on', async () => {
      const crds = readdirSync(CRDS)
        .filter(f => f.endsWith('.yaml') && f.includes('toolkit.fluxcd.io'))
        .map(f => readFileSync(join(CRDS, f), 'utf8').trim());
      const file = join(home, 'install.yaml');
      writeFileSync(file, [...crds, ...installManifests()].join('\n---\n'));
      const applied = await kubectl(['apply', '--validate=strict', '-f', file]);
      expect(applied.stderr).toBe('');
      expect(applied.code).toBe(0);
      expect(applied.stdout).toContain('service/source created');
      expect(applied.stdout).toContain(
        'deployment.apps/kustomize-controller created',
      );
      expect(applied.stdout).toContain(
        'customresourcedefinition.apiextensions.k8s.io/kustomizations.kustomize.toolkit.fluxcd.io created',
      );
      expect(applied.stdout).toContain(
        'networkpolicy.networking.k8s.io/allow-egress created',
      );
      expect(applied.stdout).toContain(
        'clusterrolebinding.rbac.authorization.k8s.io/cluster-reconciler-flux-system created',
      );

      const again = await kubectl(['apply', '-f', file]);
      expect(again.code).toBe(0);
      expect(again.stdout).toContain('service/source unchanged');

      const services = await kubectl([
        'get',
        'services',
        '-n',
        'flux-system',
        '-o',
        'name',
      ]);
      expect(services.stdout.trim().split('\n')).toEqual([
        'service/helm',
        'service/kustomize',
        'service/notification',
        'service/source',
      ]);
    });

    it('refuses a kind the cluster does not serve the way kube-apiserver does', async () => {
      const file = join(home, 'unknown.yaml');
      writeFileSync(
        file,
        [
          'apiVersion: example.com/v1',
          'kind: Widget',
          'metadata:',
          '  name: w',
          '  namespace: default',
        ].join('\n'),
      );
      const refused = await kubectl(['apply', '-f', file]);
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toContain(
        'no matches for kind "Widget" in version "example.com/v1"',
      );
    });
  },
);
