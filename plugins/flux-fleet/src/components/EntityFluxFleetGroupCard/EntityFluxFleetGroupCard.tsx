import { InfoCard } from '@backstage/core-components';
import Box from '@material-ui/core/Box';
import Link from '@material-ui/core/Link';
import { makeStyles } from '@material-ui/core/styles';
import Table from '@material-ui/core/Table';
import TableBody from '@material-ui/core/TableBody';
import TableCell from '@material-ui/core/TableCell';
import TableHead from '@material-ui/core/TableHead';
import TableRow from '@material-ui/core/TableRow';
import Typography from '@material-ui/core/Typography';
import Skeleton from '@material-ui/lab/Skeleton';
import {
  FluxObjectRef,
  RECONCILE_STATES,
} from '@flux-fleet/plugin-flux-fleet-common';
import { useState } from 'react';
import { objectTitle } from '../../lib/objectKey';
import {
  compareStateSeverity,
  STATE_LABEL,
  STATE_TONE,
} from '../../lib/stateText';
import { ObjectDetailDrawer } from '../ObjectDetail';
import { LoadError } from '../shared/LoadError';
import { RelativeTime } from '../shared/RelativeTime';
import { StaleMarker } from '../shared/StaleMarker';
import { StatusTone } from '../shared/StatusTone';
import { TruncatedText } from '../shared/TruncatedText';
import { useGroupObjects } from './useGroupObjects';
import { groupHeadline } from '../../lib/groupHeadline';
import { WholeWords } from '../shared/WholeItems';

/** How many objects the card lists; the rest are counted. */
const LISTED = 12;

const useStyles = makeStyles(theme => ({
  table: {
    '& th, & td': {
      whiteSpace: 'nowrap',
      wordBreak: 'normal',
      padding: theme.spacing(0.5, 1),
    },
  },
}));

/**
 * The ownership view on a Group entity page: the team's Flux reconcilers across the fleet (through the tenant →
 * group mapping and the Components the group owns) with their states, failing first, and the counts per state.
 * An object opens its detail view.
 *
 * Test ids: `flux-fleet-group-card`, `flux-fleet-group-counts`, `flux-fleet-group-object-<key>`,
 * `flux-fleet-group-empty`, `flux-fleet-loading`.
 */
export const EntityFluxFleetGroupCard = () => {
  const classes = useStyles();
  const view = useGroupObjects();
  const [opened, setOpened] = useState<FluxObjectRef>();
  const value = view.value;

  let content;
  if (!value) {
    content = view.error ? (
      <LoadError
        what="the team's Flux objects"
        error={view.error}
        onRetry={view.refresh}
      />
    ) : (
      <div data-testid="flux-fleet-loading">
        <Skeleton variant="text" width="50%" />
        <Skeleton variant="rect" height={120} />
      </div>
    );
  } else if (value.objects.length === 0) {
    content = (
      <Typography variant="body2" data-testid="flux-fleet-group-empty">
        No Flux object is linked to this team.{' '}
        {value.services.length === 0
          ? 'It owns no Component in the catalog: give its Components `spec.owner` = this group'
          : `None of its ${value.services.length} Components (${value.services
              .slice(0, 3)
              .join(
                ', ',
              )}) has a Flux object: label their objects with backstage.io/kubernetes-id`}
        {value.tenants.length === 0 &&
          ', or map one of its tenants to it (fluxFleet tenant → group mapping).'}
      </Typography>
    );
  } else {
    const counts = RECONCILE_STATES.map(
      s => [s, value.objects.filter(o => o.state.state === s).length] as const,
    )
      .filter(([, n]) => n > 0)
      .sort(([a], [b]) => compareStateSeverity(a, b));
    content = (
      <>
        <Typography
          variant="subtitle1"
          component="p"
          data-testid="flux-fleet-group-headline"
          style={{ fontWeight: 'bold' }}
          gutterBottom
        >
          <WholeWords text={groupHeadline(value.objects, value.totalCount)} />
        </Typography>
        <Box
          display="flex"
          flexWrap="wrap"
          style={{ gap: 16 }}
          mb={1}
          data-testid="flux-fleet-group-counts"
        >
          {counts.map(([s, n]) => (
            <Typography key={s} variant="body2">
              <StatusTone tone={STATE_TONE[s]}>
                {STATE_LABEL[s]}: {n}
              </StatusTone>
            </Typography>
          ))}
        </Box>
        <Box overflow="auto">
          <Table
            size="small"
            className={classes.table}
            aria-label="The team's Flux objects"
          >
            <TableHead>
              <TableRow>
                <TableCell>State, since</TableCell>
                <TableCell>Object, cluster</TableCell>
                <TableCell>Service / tenant</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {value.objects.slice(0, LISTED).map(o => (
                <TableRow
                  key={o.key}
                  data-testid={`flux-fleet-group-object-${o.key}`}
                >
                  <TableCell>
                    <StatusTone tone={STATE_TONE[o.state.state]}>
                      {STATE_LABEL[o.state.state]}
                    </StatusTone>
                    {o.stale && (
                      <StaleMarker
                        cluster={o.ref.cluster}
                        since={o.staleSince}
                      />
                    )}
                    <Typography
                      variant="caption"
                      color="textSecondary"
                      display="block"
                    >
                      {o.state.since ? (
                        <RelativeTime time={o.state.since} />
                      ) : (
                        '—'
                      )}
                    </Typography>
                  </TableCell>
                  <TableCell>
                    <Link
                      component="button"
                      variant="body2"
                      onClick={() => setOpened(o.ref)}
                      aria-label={`Details of ${objectTitle(o.ref)} in ${
                        o.ref.cluster
                      }`}
                    >
                      <TruncatedText
                        text={objectTitle(o.ref)}
                        maxWidth="20em"
                      />
                    </Link>
                    <div>
                      <TruncatedText
                        text={o.ref.cluster}
                        maxWidth="20em"
                        color="textSecondary"
                      />
                    </div>
                  </TableCell>
                  <TableCell>
                    <TruncatedText
                      text={[o.service, o.boundary.tenant]
                        .filter(Boolean)
                        .join(' / ')}
                      maxWidth="12em"
                    />
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Box>
        {value.totalCount > LISTED && (
          <Typography variant="body2" color="textSecondary">
            The {LISTED} worst of {value.totalCount} reconcilers; the fleet
            page's objects table lists them all (filter by service or tenant).
          </Typography>
        )}
      </>
    );
  }

  const subheader = value
    ? `${value.services.length} owned Components${
        value.tenants.length > 0 ? `, tenants ${value.tenants.join(', ')}` : ''
      }; failing first`
    : "The team's deploys across the fleet";
  return (
    <InfoCard title="Flux: this team's deploys" subheader={subheader}>
      <Box data-testid="flux-fleet-group-card">{content}</Box>
      <ObjectDetailDrawer
        objectRef={opened}
        onClose={() => setOpened(undefined)}
        onChanged={view.refresh}
      />
    </InfoCard>
  );
};
