export { CapacityView } from './CapacityView';
