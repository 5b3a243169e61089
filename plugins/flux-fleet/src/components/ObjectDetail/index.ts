export { ObjectDetailDrawer } from './ObjectDetailDrawer';
export { ObjectDetailPanel } from './ObjectDetailPanel';
