export { FluxFleetPage } from './FluxFleetPage';
export { FluxFleetPageContent } from './FluxFleetPageContent';
