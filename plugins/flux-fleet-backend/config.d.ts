export interface Config {
  /** Flux Fleet: which clusters to watch and how. */
  fluxFleet?: {
    /** The clusters whose Flux objects Flux Fleet watches. */
    clusters?: Array<{
      /** A unique name for the cluster, used in the API, the UI and catalog entity names. */
      name: string;
    }>;
  };
}
