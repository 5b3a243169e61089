import { Entity } from '@backstage/catalog-model';
import {
  catalogApiRef,
  EntityProvider,
  entityRouteRef,
} from '@backstage/plugin-catalog-react';
import {
  PermissionApi,
  permissionApiRef,
} from '@backstage/plugin-permission-react';
import { signalApiRef } from '@backstage/plugin-signals-react';
import {
  mockApis,
  renderInTestApp,
  TestApiProvider,
} from '@backstage/test-utils';
import { ReactElement } from 'react';
import { fluxFleetApiRef } from '../api';
import { FakeFluxFleetApi } from './fakeFluxFleetApi';
import { FakeSignalApi } from './fakeSignalApi';

/**
 * Renders a Flux Fleet view in a test app with the fake API, a permission API (allow all unless given), the signal
 * API when given (absent otherwise, as in an app without the signals plugin), and the entity when given.
 */
export async function renderWithApis(
  element: ReactElement,
  options: {
    api: FakeFluxFleetApi;
    signals?: FakeSignalApi;
    permission?: PermissionApi;
    entity?: Entity;
    /** The catalog API (a jest-mocked subset), for views that read the catalog. */
    catalog?: object;
  },
) {
  // EntityRefLink (tenant groups) needs the catalog's entity page to exist.
  const mountedRoutes = { '/catalog/:namespace/:kind/:name': entityRouteRef };
  const apis: Array<readonly [any, any]> = [
    [fluxFleetApiRef, options.api],
    [permissionApiRef, options.permission ?? mockApis.permission()],
  ];
  if (options.catalog) {
    apis.push([catalogApiRef, options.catalog]);
  }
  if (options.signals) {
    apis.push([signalApiRef, options.signals]);
  }
  return renderInTestApp(
    <TestApiProvider apis={apis as any}>
      {options.entity ? (
        <EntityProvider entity={options.entity}>{element}</EntityProvider>
      ) : (
        element
      )}
    </TestApiProvider>,
    { mountedRoutes },
  );
}
