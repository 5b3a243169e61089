import type { AuthService, DiscoveryService } from '@backstage/backend-plugin-api';
import type { ActionsRegistryService } from '@backstage/backend-plugin-api/alpha';
import { registerCapacityVerdictAction } from './capacityVerdictAction';
import { registerDeployStatusAction } from './deployStatusAction';
import { registerExplainObjectAction } from './explainObjectAction';
import { FleetApiClient } from './FleetApiClient';
import { registerListActions } from './listActions';
import { registerWriteActions } from './writeActions';

/**
 * Registers Flux Fleet's actions with the backend actions registry, where `@backstage/plugin-mcp-actions-backend`
 * serves them to assistants over MCP (and `actionsServiceRef` to other plugins). Every action answers through
 * Flux Fleet's own REST API on behalf of its caller (see {@link FleetApiClient}).
 */
export function registerFluxFleetActions(options: {
  actionsRegistry: ActionsRegistryService;
  auth: AuthService;
  discovery: DiscoveryService;
}): void {
  const api = new FleetApiClient(options.auth, options.discovery);
  const registry = options.actionsRegistry;
  registerDeployStatusAction(registry, api);
  registerExplainObjectAction(registry, api);
  registerListActions(registry, api);
  registerWriteActions(registry, api);
  registerCapacityVerdictAction(registry, api);
}
