export { ObjectActions } from './ObjectActions';
