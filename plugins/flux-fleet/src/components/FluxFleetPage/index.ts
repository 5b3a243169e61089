export { FluxFleetPage } from './FluxFleetPage';
