import AutorenewIcon from '@material-ui/icons/Autorenew';

/** Flux Fleet's icon: the reconcile loop. */
export const FluxFleetIcon = AutorenewIcon;
