export interface Config {
  catalog?: {
    providers?: {
      /** Flux Fleet entity provider: emits clusters, instances, shards and reconcilers as catalog entities. */
      fluxFleet?: {
        /** Owner of emitted entities when no tenant → group mapping applies. Default: `group:default/guests`. */
        defaultOwner?: string;
      };
    };
  };
}
