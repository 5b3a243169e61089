export { EntityFluxFleetContent } from './EntityFluxFleetContent';
