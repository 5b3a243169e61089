import { ResponseError } from '@backstage/errors';
import { fakePermissionApi } from '../../__testUtils__/fakePermissionApi';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { SIGNAL_CHANNELS } from '@flux-fleet/plugin-flux-fleet-common';
import { fakeFluxFleetApi } from '../../__testUtils__/fakeFluxFleetApi';
import { FakeSignalApi } from '../../__testUtils__/fakeSignalApi';
import {
  clusters,
  failingOnShard1,
  helmRelease,
  objectDetail,
} from '../../__testUtils__/fixtures';
import { renderWithApis } from '../../__testUtils__/renderWithApis';
import { ObjectActions } from './ObjectActions';

const REQUESTED_AT = '2026-07-14T10:20:00.000000001Z';

async function forbidden(status: number, message: string) {
  return ResponseError.fromResponse(
    new Response(
      JSON.stringify({
        error: { name: 'NotAllowedError', message },
        response: { statusCode: status },
      }),
      {
        status,
        statusText: 'Forbidden',
        headers: { 'Content-Type': 'application/json' },
      },
    ) as any,
  );
}

const button = (name: string) => screen.getByRole('button', { name });

/**
 * `usePermission` caches each (permission, object key) decision for the whole test file (it uses SWR), so a test
 * that denies a permission acts on an object of its own.
 */
function ownObject(name: string) {
  const ref = { ...failingOnShard1.ref, name };
  return {
    ...failingOnShard1,
    ref,
    key: `prod-eu-1/team-payments/Kustomization/${name}`,
  };
}

describe('ObjectActions', () => {
  it('reconciles, shows progress until the controller has handled the request, then says so', async () => {
    const signals = new FakeSignalApi();
    const onChanged = jest.fn();
    const api = fakeFluxFleetApi({
      getObject: jest
        .fn()
        .mockResolvedValueOnce(objectDetail(failingOnShard1))
        .mockResolvedValue(
          objectDetail({
            ...failingOnShard1,
            state: {
              ...failingOnShard1.state,
              lastHandledReconcileAt: REQUESTED_AT,
            },
          }),
        ),
    });
    await renderWithApis(
      <ObjectActions
        object={failingOnShard1}
        cluster={clusters[0]}
        onChanged={onChanged}
      />,
      { api, signals },
    );
    await waitFor(() => expect(button('Reconcile')).toBeEnabled());
    await userEvent.click(button('Reconcile'));

    expect(api.reconcile).toHaveBeenCalledWith(failingOnShard1.ref, {
      force: false,
    });
    const status = await screen.findByTestId('flux-fleet-action-status');
    expect(status).toHaveTextContent(
      'Reconcile requested; waiting for kustomize-controller-shard1 (flux-system/shard1) to handle it…',
    );
    expect(button('Suspend')).toBeDisabled();
    expect(onChanged).not.toHaveBeenCalled();

    // A change of the object that is not yet the controller handling the request: still pending.
    act(() =>
      signals.publish(SIGNAL_CHANNELS.object(failingOnShard1.key), {
        keys: [failingOnShard1.key],
        at: REQUESTED_AT,
      }),
    );
    await waitFor(() => expect(api.getObject).toHaveBeenCalledTimes(1));
    expect(screen.getByTestId('flux-fleet-action-status')).toHaveTextContent(
      'waiting for',
    );

    // The controller echoes the request in lastHandledReconcileAt.
    act(() =>
      signals.publish(SIGNAL_CHANNELS.object(failingOnShard1.key), {
        keys: [failingOnShard1.key],
        at: REQUESTED_AT,
      }),
    );
    await waitFor(() =>
      expect(screen.getByTestId('flux-fleet-action-status')).toHaveTextContent(
        'Reconciled: the controller handled the request.',
      ),
    );
    expect(onChanged).toHaveBeenCalledTimes(1);
    expect(button('Suspend')).toBeEnabled();
  });

  it('follows a pending request without the signals plugin by reading the object again', async () => {
    jest.useFakeTimers({ advanceTimers: true });
    try {
      const api = fakeFluxFleetApi({
        getObject: jest.fn(async () =>
          objectDetail({
            ...failingOnShard1,
            state: {
              ...failingOnShard1.state,
              lastHandledReconcileAt: REQUESTED_AT,
            },
          }),
        ),
      });
      await renderWithApis(
        <ObjectActions object={failingOnShard1} cluster={clusters[0]} />,
        { api },
      );
      await waitFor(() => expect(button('Reconcile')).toBeEnabled());
      await userEvent.click(button('Reconcile'));
      await screen.findByText(/waiting for kustomize-controller-shard1/);
      expect(api.getObject).not.toHaveBeenCalled();
      await act(async () => {
        jest.advanceTimersByTime(3100);
      });
      await waitFor(() =>
        expect(
          screen.getByTestId('flux-fleet-action-status'),
        ).toHaveTextContent('Reconciled: the controller handled the request.'),
      );
    } finally {
      jest.useRealTimers();
    }
  });

  it('disables what the user may not do, with the reason', async () => {
    const api = fakeFluxFleetApi();
    const permission = fakePermissionApi(
      name => name !== 'flux-fleet.object.reconcile',
    );
    await renderWithApis(
      <ObjectActions
        object={ownObject('denied-reconcile')}
        cluster={clusters[0]}
      />,
      {
        api,
        permission,
      },
    );
    await waitFor(() => expect(button('Suspend')).toBeEnabled());
    expect(button('Reconcile')).toBeDisabled();
    expect(button('Reconcile')).toHaveAccessibleDescription(
      'You do not have the permission flux-fleet.object.reconcile on prod-eu-1/team-payments/Kustomization/denied-reconcile.',
    );
  });

  it('asks before suspending, and suspends only when confirmed', async () => {
    const onChanged = jest.fn();
    const api = fakeFluxFleetApi();
    await renderWithApis(
      <ObjectActions
        object={failingOnShard1}
        cluster={clusters[0]}
        onChanged={onChanged}
      />,
      { api },
    );
    await waitFor(() => expect(button('Suspend')).toBeEnabled());

    await userEvent.click(button('Suspend'));
    const dialog = await screen.findByTestId('flux-fleet-suspend-confirm');
    expect(
      within(dialog).getByText('Suspend Kustomization team-payments/payments?'),
    ).toBeInTheDocument();
    expect(dialog).toHaveTextContent(
      'Flux stops reconciling it on cluster prod-eu-1 until it is resumed',
    );
    await userEvent.click(
      within(dialog).getByRole('button', { name: 'Cancel' }),
    );
    await waitFor(() =>
      expect(
        screen.queryByTestId('flux-fleet-suspend-confirm'),
      ).not.toBeInTheDocument(),
    );
    expect(api.suspend).not.toHaveBeenCalled();

    await userEvent.click(button('Suspend'));
    await userEvent.click(
      within(await screen.findByTestId('flux-fleet-suspend-confirm')).getByRole(
        'button',
        { name: 'Suspend' },
      ),
    );
    expect(api.suspend).toHaveBeenCalledWith(failingOnShard1.ref);
    expect(
      await screen.findByTestId('flux-fleet-action-status'),
    ).toHaveTextContent('Suspended: Flux no longer reconciles it.');
    expect(onChanged).toHaveBeenCalledTimes(1);
  });

  it('shows the backend error verbatim', async () => {
    const api = fakeFluxFleetApi({
      reconcile: jest.fn(async () => {
        throw await forbidden(
          403,
          'the credentials for cluster prod-eu-1 are read-only',
        );
      }),
    });
    await renderWithApis(
      <ObjectActions object={failingOnShard1} cluster={clusters[0]} />,
      { api },
    );
    await waitFor(() => expect(button('Reconcile')).toBeEnabled());
    await userEvent.click(button('Reconcile'));
    const status = await screen.findByTestId('flux-fleet-action-status');
    expect(status).toHaveTextContent(
      'the credentials for cluster prod-eu-1 are read-only',
    );
    expect(status).not.toHaveTextContent('Request failed');
    await userEvent.click(
      within(status).getByRole('button', { name: 'Dismiss' }),
    );
    expect(
      screen.queryByTestId('flux-fleet-action-status'),
    ).not.toBeInTheDocument();
  });

  it('offers a forced reconcile for a HelmRelease', async () => {
    const api = fakeFluxFleetApi();
    await renderWithApis(
      <ObjectActions object={helmRelease} cluster={clusters[0]} />,
      { api },
    );
    await waitFor(() => expect(button('Force reconcile')).toBeEnabled());
    await userEvent.click(button('Force reconcile'));
    expect(api.reconcile).toHaveBeenCalledWith(helmRelease.ref, {
      force: true,
    });
    expect(
      await screen.findByTestId('flux-fleet-action-status'),
    ).toHaveTextContent(
      'Force reconcile requested; waiting for helm-controller (flux-system/main) to handle it…',
    );
  });

  it('says when no controller will ever handle the request', async () => {
    const api = fakeFluxFleetApi({
      reconcile: jest.fn(async () => ({
        key: failingOnShard1.key,
        action: 'reconcile',
        requestedAt: REQUESTED_AT,
        handled: 'never',
        message:
          'No controller watches prod-eu-1/team-payments/Kustomization/payments: the request is written but nothing will handle it.',
      })),
    });
    await renderWithApis(
      <ObjectActions object={failingOnShard1} cluster={clusters[0]} />,
      { api },
    );
    await waitFor(() => expect(button('Reconcile')).toBeEnabled());
    await userEvent.click(button('Reconcile'));
    expect(
      await screen.findByTestId('flux-fleet-action-status'),
    ).toHaveTextContent(
      'No controller watches prod-eu-1/team-payments/Kustomization/payments',
    );
  });

  it('offers resume for a suspended object and explains why it cannot be reconciled', async () => {
    const suspended = {
      ...failingOnShard1,
      suspended: true,
      state: { state: 'suspended' as const },
    };
    const api = fakeFluxFleetApi();
    await renderWithApis(
      <ObjectActions object={suspended} cluster={clusters[0]} />,
      { api },
    );
    await waitFor(() => expect(button('Resume')).toBeEnabled());
    expect(
      screen.queryByRole('button', { name: 'Suspend' }),
    ).not.toBeInTheDocument();
    expect(button('Reconcile')).toHaveAccessibleDescription(
      'It is suspended: resume it first (Flux does not reconcile a suspended object).',
    );
    await userEvent.click(button('Resume'));
    expect(api.resume).toHaveBeenCalledWith(suspended.ref);
    expect(
      await screen.findByTestId('flux-fleet-action-status'),
    ).toHaveTextContent('Resumed: Flux reconciles it again.');
  });

  it('disables every action on a cluster that cannot be reached or is read-only, naming it', async () => {
    const api = fakeFluxFleetApi();
    const { unmount } = await renderWithApis(
      <ObjectActions
        object={{ ...failingOnShard1, stale: true }}
        cluster={{ ...clusters[0], status: 'unreachable' }}
      />,
      { api },
    );
    expect(button('Reconcile')).toHaveAccessibleDescription(
      'Cluster prod-eu-1 cannot be reached, so the request cannot be written.',
    );
    expect(button('Suspend')).toBeDisabled();
    unmount();

    await renderWithApis(
      <ObjectActions
        object={failingOnShard1}
        cluster={{ ...clusters[0], readOnly: true }}
      />,
      { api },
    );
    expect(button('Suspend')).toHaveAccessibleDescription(
      'The credentials for cluster prod-eu-1 are read-only.',
    );
  });

  it('lists the actions in a menu for table rows, disabled ones with their reason', async () => {
    const api = fakeFluxFleetApi();
    const permission = fakePermissionApi(() => false);
    await renderWithApis(
      <ObjectActions
        object={ownObject('denied-all')}
        cluster={clusters[0]}
        variant="menu"
      />,
      { api, permission },
    );
    await userEvent.click(
      button('Actions for Kustomization team-payments/denied-all'),
    );
    const item = await screen.findByRole('menuitem', { name: /Suspend/ });
    await waitFor(() =>
      expect(item).toHaveTextContent(
        'You do not have the permission flux-fleet.object.suspend on prod-eu-1/team-payments/Kustomization/denied-all.',
      ),
    );
    expect(item).toHaveAttribute('aria-disabled', 'true');
  });
});
