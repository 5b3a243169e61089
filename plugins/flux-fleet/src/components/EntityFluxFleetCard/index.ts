export { EntityFluxFleetCard } from './EntityFluxFleetCard';
