export { EntityFluxFleetGroupCard } from './EntityFluxFleetGroupCard';
