export { FluxVersionsView } from './FluxVersionsView';
