import { mockCredentials } from '@backstage/backend-test-utils';
import { principalRefusal } from './ActionAccess';

describe('principalRefusal: actions are for people', () => {
  const reconcile = 'flux-fleet.object.reconcile';

  it.each([
    ['a signed-in user', mockCredentials.user('user:default/alice'), undefined],
    [
      'a service principal without access restrictions (a static token, another plugin)',
      mockCredentials.service('external:scripts'),
      /^Actions are for people: the service principal external:scripts may act only when its access restrictions name flux-fleet.object.reconcile/,
    ],
    [
      'a service principal restricted to reading',
      mockCredentials.service('external:scripts', { permissionAttributes: { action: ['read'] } }),
      /may act only when its access restrictions name flux-fleet.object.reconcile/,
    ],
    [
      'a service principal whose restrictions name another permission',
      mockCredentials.service('external:scripts', { permissionNames: ['flux-fleet.object.suspend'] }),
      /may act only when its access restrictions name flux-fleet.object.reconcile/,
    ],
    [
      'a service principal whose restrictions name the permission',
      mockCredentials.service('external:deployer', { permissionNames: [reconcile] }),
      undefined,
    ],
    ['nobody', mockCredentials.none(), /^Actions need a signed-in user\.$/],
  ])('%s', (_what, credentials, expected) => {
    // no refusal reads as the empty text
    expect(principalRefusal(reconcile, credentials) ?? '').toMatch(expected ?? /^$/);
  });
});
