import { clusterEnvironment, ENVIRONMENT_LABEL } from './clusterEnvironment';

function namespaces(labels: Record<string, Record<string, string>>) {
  return new Map(Object.entries(labels).map(([name, l]) => [name, { labels: l }]));
}

describe('clusterEnvironment (rules §11)', () => {
  it.each<{
    case: string;
    configured?: string;
    labels: Record<string, Record<string, string>>;
    instances: string[];
    expected: unknown;
  }>([
    {
      case: 'the configured environment wins over every label',
      configured: 'prod',
      labels: { 'kube-system': { [ENVIRONMENT_LABEL]: 'staging' } },
      instances: ['flux-system'],
      expected: { environment: 'prod', source: { from: 'config' } },
    },
    {
      case: 'the label on kube-system',
      labels: { 'kube-system': { [ENVIRONMENT_LABEL]: 'production' } },
      instances: ['flux-system'],
      expected: { environment: 'production', source: { from: 'label', namespace: 'kube-system' } },
    },
    {
      case: 'kube-system before the Flux instance namespace',
      labels: {
        'kube-system': { [ENVIRONMENT_LABEL]: 'staging' },
        'flux-system': { [ENVIRONMENT_LABEL]: 'prod' },
      },
      instances: ['flux-system'],
      expected: { environment: 'staging', source: { from: 'label', namespace: 'kube-system' } },
    },
    {
      case: "the label on the instance's namespace when kube-system has none",
      labels: { 'kube-system': {}, 'flux-system': { [ENVIRONMENT_LABEL]: 'dev' } },
      instances: ['flux-system'],
      expected: { environment: 'dev', source: { from: 'label', namespace: 'flux-system' } },
    },
    {
      case: 'instance namespaces are read by name',
      labels: {
        'flux-tenants': { [ENVIRONMENT_LABEL]: 'qa' },
        'flux-apps': { [ENVIRONMENT_LABEL]: 'test' },
      },
      instances: ['flux-tenants', 'flux-apps'],
      expected: { environment: 'test', source: { from: 'label', namespace: 'flux-apps' } },
    },
    {
      case: 'an unusable value is passed over for the next place',
      labels: {
        'kube-system': { [ENVIRONMENT_LABEL]: 'prod eu!' },
        'flux-system': { [ENVIRONMENT_LABEL]: 'prod' },
      },
      instances: ['flux-system'],
      expected: { environment: 'prod', source: { from: 'label', namespace: 'flux-system' } },
    },
    {
      case: 'a label on a namespace that is neither kube-system nor an instance says nothing',
      labels: { 'team-payments': { [ENVIRONMENT_LABEL]: 'prod' } },
      instances: ['flux-system'],
      expected: undefined,
    },
    {
      case: 'no label and nothing configured',
      labels: { 'kube-system': { 'kubernetes.io/metadata.name': 'kube-system' } },
      instances: ['flux-system'],
      expected: undefined,
    },
  ])('$case', ({ configured, labels, instances, expected }) => {
    expect(
      clusterEnvironment({ configured, namespaces: namespaces(labels), instanceNamespaces: instances }),
    ).toEqual(expected);
  });
});
