import { renderInTestApp } from '@backstage/test-utils';
import { screen } from '@testing-library/react';
import { ApiVersion, InventoryTable } from './InventoryTable';

describe('InventoryTable', () => {
  it('shows each applied object with its API version whole, wrapping only after dots and the slash', async () => {
    await renderInTestApp(
      <InventoryTable
        inventory={[
          {
            id: 'apps_podinfo_helm.toolkit.fluxcd.io_HelmRelease',
            kind: 'HelmRelease',
            namespace: 'apps',
            name: 'podinfo',
            group: 'helm.toolkit.fluxcd.io',
            version: 'v2',
          },
          {
            id: '_apps__Namespace',
            kind: 'Namespace',
            namespace: '',
            name: 'apps',
            group: '',
            version: 'v1',
          },
        ]}
      />,
    );
    expect(screen.getByText('Inventory (2)')).toBeInTheDocument();
    const version = screen.getByText(
      (_, element) =>
        element?.tagName === 'SPAN' &&
        element.textContent === 'helm.toolkit.fluxcd.io/v2',
    );
    // a break opportunity after each dot and the slash, and the cell may not break elsewhere
    expect(version.querySelectorAll('wbr')).toHaveLength(4);
    expect(version).toHaveStyle({
      wordBreak: 'normal',
      overflowWrap: 'normal',
    });
    expect(screen.getByText('podinfo')).toBeInTheDocument();
  });

  it('says why an inventory is empty', async () => {
    await renderInTestApp(<InventoryTable inventory={[]} />);
    expect(
      screen.getByText(/No inventory: it has applied nothing yet/),
    ).toBeInTheDocument();
  });

  it('leaves a core version without a break', async () => {
    await renderInTestApp(<ApiVersion value="v1" />);
    expect(screen.getByText('v1').querySelectorAll('wbr')).toHaveLength(0);
  });
});
