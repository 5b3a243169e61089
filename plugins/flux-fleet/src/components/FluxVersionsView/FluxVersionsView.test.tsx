import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  Finding,
  FleetVersionView,
} from '@flux-fleet/plugin-flux-fleet-common';
import { fakeFluxFleetApi } from '../../__testUtils__/fakeFluxFleetApi';
import { renderWithApis } from '../../__testUtils__/renderWithApis';
import { FluxVersionsView } from './FluxVersionsView';

const view: FleetVersionView = {
  latest: 'v2.9.4',
  instances: [
    {
      cluster: 'prod-eu-west-1',
      instance: 'flux-system',
      version: 'v2.9.4',
      source: 'flux-operator',
      mixed: false,
      minorsBehind: 0,
      releasesBehind: 0,
      blockers: [],
    },
    {
      cluster: 'staging-us-east-1',
      instance: 'flux-system',
      version: 'v2.6.0',
      source: 'controller-images',
      mixed: false,
      minorsBehind: 3,
      releasesBehind: 14,
      nextMinor: '2.7',
      blockers: [
        {
          crd: 'helmreleases.helm.toolkit.fluxcd.io',
          kind: 'HelmRelease',
          version: 'v2beta1',
          removedIn: 7,
        },
      ],
    },
    {
      cluster: 'dev-eu-central-1',
      instance: 'flux-system',
      version: 'v2.8.3',
      source: 'version-label',
      mixed: true,
      minorsBehind: 1,
      releasesBehind: 4,
      nextMinor: '2.9',
      blockers: [],
    },
  ],
  clustersByVersion: {
    'v2.6.0': ['staging-us-east-1'],
    'v2.8.3': ['dev-eu-central-1'],
    'v2.9.4': ['prod-eu-west-1'],
  },
};

const deprecated: Finding = {
  type: 'deprecated-api',
  severity: 'warning',
  object: {
    cluster: 'staging-us-east-1',
    namespace: 'team-a',
    kind: 'Kustomization',
    name: 'web',
  },
  message:
    'Kustomization team-a/web was last written at kustomize.toolkit.fluxcd.io/v1beta2, which Flux 2.8 removes: write v1 instead',
  related: [],
};

describe('the Flux versions view', () => {
  it('says how many instances run the latest release, what blocks an upgrade and the flux migrate command', async () => {
    const api = fakeFluxFleetApi({
      getVersions: jest.fn(async () => view),
      getFindings: jest.fn(async () => [deprecated]),
    });
    const onOpen = jest.fn();
    await renderWithApis(<FluxVersionsView onOpen={onOpen} />, { api });
    expect(
      await screen.findByTestId('flux-versions-headline'),
    ).toHaveTextContent(
      '1 of 3 Flux instances run the latest release (v2.9.4); 1 must run flux migrate before its next upgrade.',
    );
    expect(api.getFindings).toHaveBeenCalledWith({ type: ['deprecated-api'] });
    expect(screen.getByText('v2.6.0: staging-us-east-1')).toBeInTheDocument();

    const staging = screen.getByTestId(
      'flux-versions-row-staging-us-east-1-flux-system',
    );
    expect(staging).toHaveTextContent(
      "inferred from the controllers' image versions",
    );
    expect(staging).toHaveTextContent('3 minors (14 releases) behind');
    const blocked = within(staging).getByTestId(
      'flux-versions-blocked-staging-us-east-1-flux-system',
    );
    expect(blocked).toHaveTextContent('blocked: Flux 2.7 no longer serves');
    expect(blocked).toHaveTextContent(
      'v2beta1, stored by HelmRelease (removed in Flux 2.7)',
    );
    expect(blocked).toHaveTextContent(
      'flux migrate --context staging-us-east-1',
    );

    const prod = screen.getByTestId(
      'flux-versions-row-prod-eu-west-1-flux-system',
    );
    expect(prod).toHaveTextContent('the latest release');
    expect(prod).toHaveTextContent('on the latest minor');
    const dev = screen.getByTestId(
      'flux-versions-row-dev-eu-central-1-flux-system',
    );
    expect(dev).toHaveTextContent('ready for Flux 2.9');
    expect(dev).toHaveTextContent('controllers of different releases');

    const objects = screen.getByTestId('flux-versions-deprecated');
    expect(objects).toHaveTextContent(
      'which Flux 2.8 removes: write v1 instead',
    );
    await userEvent.click(
      within(objects).getByRole('button', {
        name: 'Details of Kustomization team-a/web in staging-us-east-1',
      }),
    );
    expect(onOpen).toHaveBeenCalledWith(deprecated.object);
  });

  it('says what to check when no instance is found', async () => {
    const api = fakeFluxFleetApi();
    await renderWithApis(<FluxVersionsView />, { api });
    expect(
      await screen.findByText('No Flux instance found yet'),
    ).toBeInTheDocument();
    expect(screen.getByTestId('flux-versions')).toHaveTextContent(
      'customresourcedefinitions',
    );
  });

  it('names what failed to load, with a retry', async () => {
    const api = fakeFluxFleetApi({
      getVersions: jest.fn(async () => {
        throw new Error('Request failed with 503 Service Unavailable');
      }),
    });
    await renderWithApis(<FluxVersionsView />, { api });
    expect(
      await screen.findByText(/the Flux versions of the fleet/),
    ).toBeInTheDocument();
  });
});
