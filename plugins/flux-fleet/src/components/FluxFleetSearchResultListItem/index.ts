export { FluxFleetSearchResultListItem } from './FluxFleetSearchResultListItem';
export type { FluxFleetSearchResultListItemProps } from './FluxFleetSearchResultListItem';
