export { fluxFleetApiRef } from './FluxFleetApi';
export type { FluxFleetApi } from './FluxFleetApi';
export { FluxFleetClient } from './FluxFleetClient';
export { objectQueryParams } from './objectQueryParams';
