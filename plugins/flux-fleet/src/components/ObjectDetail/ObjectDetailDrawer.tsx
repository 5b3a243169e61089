import Box from '@material-ui/core/Box';
import Drawer from '@material-ui/core/Drawer';
import IconButton from '@material-ui/core/IconButton';
import Typography from '@material-ui/core/Typography';
import CloseIcon from '@material-ui/icons/Close';
import {
  EntityClusterHealth,
  FluxObjectRef,
} from '@flux-fleet/plugin-flux-fleet-common';
import { objectTitle } from '../../lib/objectKey';
import { ObjectDetailPanel } from './ObjectDetailPanel';

/**
 * The detail view of one object, in a drawer over the card, tab or fleet page that opened it.
 *
 * Test ids: `flux-fleet-detail-drawer`; the close button is named "Close".
 */
export const ObjectDetailDrawer = (props: {
  objectRef?: FluxObjectRef;
  clusters?: EntityClusterHealth[];
  onClose: () => void;
  onChanged?: () => void;
}) => {
  const { objectRef, clusters, onClose, onChanged } = props;
  return (
    <Drawer
      anchor="right"
      open={Boolean(objectRef)}
      onClose={onClose}
      PaperProps={{ style: { width: 'min(760px, 100vw)' } }}
    >
      {objectRef && (
        <Box
          p={3}
          data-testid="flux-fleet-detail-drawer"
          role="dialog"
          aria-label={objectTitle(objectRef)}
        >
          <Box display="flex" alignItems="flex-start">
            <Box flexGrow={1}>
              <Typography variant="h5" component="h2">
                {objectTitle(objectRef)}
              </Typography>
              <Typography variant="body2" color="textSecondary">
                Cluster {objectRef.cluster}
              </Typography>
            </Box>
            <IconButton aria-label="Close" onClick={onClose}>
              <CloseIcon />
            </IconButton>
          </Box>
          <ObjectDetailPanel
            objectRef={objectRef}
            cluster={clusters?.find(c => c.name === objectRef.cluster)}
            onChanged={onChanged}
          />
        </Box>
      )}
    </Drawer>
  );
};
