import { LoggerService } from '@backstage/backend-plugin-api';
import { Entity } from '@backstage/catalog-model';
import {
  EntityProvider,
  EntityProviderConnection,
} from '@backstage/plugin-catalog-node';
import { FleetIndexService } from '@flux-fleet/plugin-flux-fleet-node';

/** Emits the fleet's structure as catalog entities. */
export class FluxFleetEntityProvider implements EntityProvider {
  private connection?: EntityProviderConnection;

  constructor(
    private readonly options: {
      fleetIndex: FleetIndexService;
      logger: LoggerService;
    },
  ) {}

  getProviderName(): string {
    return 'flux-fleet';
  }

  async connect(connection: EntityProviderConnection): Promise<void> {
    this.connection = connection;
    await this.refresh();
  }

  async refresh(): Promise<void> {
    if (!this.connection) {
      throw new Error('FluxFleetEntityProvider is not connected yet');
    }
    const entities: Entity[] = this.options.fleetIndex
      .clusters()
      .map(cluster => ({
        apiVersion: 'backstage.io/v1alpha1',
        kind: 'Resource',
        metadata: {
          name: cluster.name,
          annotations: {
            'backstage.io/managed-by-location': `flux-fleet:${cluster.name}`,
            'backstage.io/managed-by-origin-location': `flux-fleet:${cluster.name}`,
          },
        },
        spec: { type: 'kubernetes-cluster', owner: 'group:default/guests' },
      }));
    await this.connection.applyMutation({
      type: 'full',
      entities: entities.map(entity => ({
        entity,
        locationKey: 'flux-fleet',
      })),
    });
    this.options.logger.info(
      `flux-fleet provider emitted ${entities.length} entities`,
    );
  }
}
