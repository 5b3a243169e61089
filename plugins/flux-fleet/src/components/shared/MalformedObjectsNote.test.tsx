import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeFluxFleetApi } from '../../__testUtils__/fakeFluxFleetApi';
import { renderWithApis } from '../../__testUtils__/renderWithApis';
import { MalformedObjectsNote } from './MalformedObjectsNote';

describe('MalformedObjectsNote', () => {
  it('says how many objects of the cluster are malformed and lists each with what is wrong', async () => {
    const api = fakeFluxFleetApi({
      getMalformed: jest.fn(async () => [
        {
          cluster: 'prod-eu-1',
          kind: 'Kustomization',
          namespace: 'apps',
          name: 'payments',
          disposition: 'read',
          problems: ['spec.sourceRef should be an object, got "git"; ignored'],
          key: 'prod-eu-1/apps/Kustomization/payments',
        },
        {
          cluster: 'prod-eu-1',
          kind: 'HelmRelease',
          namespace: 'apps',
          name: '?',
          disposition: 'skipped',
          problems: ['metadata.name is missing'],
        },
      ]),
    });
    await renderWithApis(<MalformedObjectsNote cluster="prod-eu-1" count={2} />, { api });
    await userEvent.click(screen.getByRole('button', { name: '2 malformed objects' }));
    const list = await screen.findByTestId('flux-fleet-malformed-prod-eu-1');
    expect(api.getMalformed).toHaveBeenCalledWith({ cluster: 'prod-eu-1' });
    expect(within(list).getByText(/Kustomization apps\/payments/).closest('li')).toHaveTextContent(
      'shown, these fields ignored): spec.sourceRef should be an object',
    );
    expect(within(list).getByText(/HelmRelease apps\/\?/).closest('li')).toHaveTextContent(
      'skipped: it cannot be read): metadata.name is missing',
    );
  });

  it('shows nothing for a cluster without malformed objects', async () => {
    const api = fakeFluxFleetApi();
    await renderWithApis(<MalformedObjectsNote cluster="prod-eu-1" count={0} />, { api });
    expect(screen.queryByTestId('flux-fleet-malformed-note-prod-eu-1')).toBeNull();
  });
});
