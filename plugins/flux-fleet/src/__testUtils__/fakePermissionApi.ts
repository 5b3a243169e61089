import { PermissionApi } from '@backstage/plugin-permission-react';

/**
 * A permission API that decides by permission name and resource ref, e.g.
 * `fakePermissionApi(name => name !== 'flux-fleet.object.reconcile')`.
 */
export function fakePermissionApi(
  allow: (permissionName: string, resourceRef?: string) => boolean,
): PermissionApi {
  return {
    async authorize(request) {
      const resourceRef =
        'resourceRef' in request ? (request.resourceRef as string) : undefined;
      // The result is the AuthorizeResult enum of plugin-permission-common, whose values are these strings.
      return {
        result: (allow(request.permission.name, resourceRef)
          ? 'ALLOW'
          : 'DENY') as any,
      };
    },
  };
}
