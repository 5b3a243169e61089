import { renderInTestApp } from '@backstage/test-utils';
import { screen } from '@testing-library/react';
import { FluxFleetSearchResultListItem } from './FluxFleetSearchResultListItem';

describe('FluxFleetSearchResultListItem', () => {
  it('shows the Flux kind, cluster, instance, shard, tenant and namespace as chips', async () => {
    await renderInTestApp(
      <FluxFleetSearchResultListItem
        result={
          {
            title: 'payments',
            text: 'Kustomization team-payments/payments in prod-eu-1',
            location:
              '/catalog/default/resource/prod-eu-1.team-payments.payments',
            kind: 'Resource',
            type: 'flux-kustomization',
            fluxKind: 'Kustomization',
            fluxCluster: 'prod-eu-1',
            fluxInstance: 'flux-system',
            fluxShard: 'shard1',
            fluxTenant: 'payments',
            fluxNamespace: 'team-payments',
          } as any
        }
      />,
    );
    expect(screen.getByRole('link', { name: 'payments' })).toHaveAttribute(
      'href',
      '/catalog/default/resource/prod-eu-1.team-payments.payments',
    );
    expect(
      screen.getByText('Kustomization team-payments/payments in prod-eu-1'),
    ).toBeInTheDocument();
    for (const chip of [
      'Kind: Kustomization',
      'Cluster: prod-eu-1',
      'Instance: flux-system',
      'Shard: shard1',
      'Tenant: payments',
      'Namespace: team-payments',
    ]) {
      expect(screen.getByText(chip)).toBeInTheDocument();
    }
  });

  it('shows only the chips the document has, falling back to the entity type for the kind', async () => {
    await renderInTestApp(
      <FluxFleetSearchResultListItem
        result={
          {
            title: 'prod-eu-1',
            text: 'Kubernetes cluster',
            location: '/catalog/default/resource/prod-eu-1',
            kind: 'Resource',
            type: 'kubernetes-cluster',
          } as any
        }
      />,
    );
    expect(screen.getByText('Kind: kubernetes-cluster')).toBeInTheDocument();
    expect(screen.queryByText(/^Shard:/)).not.toBeInTheDocument();
    expect(screen.queryByText(/^Namespace:/)).not.toBeInTheDocument();
  });
});
