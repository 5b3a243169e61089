import { renderInTestApp } from '@backstage/test-utils';
import { screen } from '@testing-library/react';
import { BoundarySummary } from './BoundarySummary';

describe('BoundarySummary', () => {
  it('leaves out the identity for kinds that apply nothing (a source has no service account)', async () => {
    await renderInTestApp(
      <BoundarySummary
        boundary={{
          cluster: 'prod-eu-1',
          instance: 'flux-system',
          namespace: 'team-shop',
          tenant: 'shop',
          serviceAccount: null,
          serviceAccountSource: null,
          lockdown: false,
          enforcement: 'none',
          reasons: [
            'cross-namespace references allowed in its instance (--no-cross-namespace-refs is off on its controllers)',
          ],
        }}
      />,
    );
    const boundary = screen.getByTestId('flux-fleet-boundary');
    expect(boundary).toHaveTextContent(
      'None · tenant shop · namespace team-shop',
    );
    expect(boundary).not.toHaveTextContent('runs as');
    expect(boundary).toHaveTextContent(
      '--no-cross-namespace-refs is off on its controllers',
    );
  });

  it('says when the apply runs as the default service account of the controller', async () => {
    await renderInTestApp(
      <BoundarySummary
        boundary={{
          cluster: 'prod-eu-1',
          instance: 'flux-system',
          namespace: 'team-shop',
          tenant: null,
          serviceAccount: 'default-apply',
          serviceAccountSource: 'default',
          lockdown: true,
          enforcement: 'enforced',
          reasons: [],
        }}
      />,
    );
    expect(screen.getByTestId('flux-fleet-boundary')).toHaveTextContent(
      'Enforced · tenant none · namespace team-shop · runs as default-apply (--default-service-account)',
    );
  });
});
