import Box from '@material-ui/core/Box';
import { makeStyles } from '@material-ui/core/styles';
import Button from '@material-ui/core/Button';
import Chip from '@material-ui/core/Chip';
import LinearProgress from '@material-ui/core/LinearProgress';
import Link from '@material-ui/core/Link';
import MenuItem from '@material-ui/core/MenuItem';
import Paper from '@material-ui/core/Paper';
import Table from '@material-ui/core/Table';
import TableBody from '@material-ui/core/TableBody';
import TableCell from '@material-ui/core/TableCell';
import TableContainer from '@material-ui/core/TableContainer';
import TableHead from '@material-ui/core/TableHead';
import TableRow from '@material-ui/core/TableRow';
import TableSortLabel from '@material-ui/core/TableSortLabel';
import TextField from '@material-ui/core/TextField';
import Typography from '@material-ui/core/Typography';
import {
  EntityClusterHealth,
  FluxObjectRef,
  ObjectQuery,
} from '@flux-fleet/plugin-flux-fleet-common';
import { Fragment, useEffect, useState } from 'react';
import { ENFORCEMENT_LABEL } from '../../lib/boundaryText';
import { FINDING_LABEL } from '../../lib/findingText';
import { objectTitle } from '../../lib/objectKey';
import { ownerLabel } from '../../lib/ownerText';
import { LoadError } from '../shared/LoadError';
import { ReconcileStateLabel } from '../shared/ReconcileStateLabel';
import { RelativeTime } from '../shared/RelativeTime';
import { FleetObjectFilters } from './FleetObjectFilters';
import { ObjectFilters, useCursorPages } from './useCursorPages';
import { useErrorTextClass } from '../shared/useErrorTextClass';
import { NOWRAP_CELL } from '../shared/TruncatedText';
import { BreakablePath, SecondLine, WORDS_CELL } from '../shared/WholeItems';

const useStyles = makeStyles({
  table: {
    // Backstage's theme lets table cells break words anywhere, which squeezes "Ready" into "Rea dy" and
    // "Kustomization" into "Kustomi zation" beside the findings: break between words only…
    '& td': { wordBreak: 'normal' },
    // …and let long finding chips wrap, so that the table still fits a laptop's width.
    '& td .MuiChip-root': { height: 'auto', maxWidth: '100%' },
    '& td .MuiChip-label': { whiteSpace: 'normal' },
  },
});

/** Page sizes offered; the API allows up to 1000. */
export const PAGE_SIZES = [25, 50, 100, 200];

type SortField = NonNullable<ObjectQuery['sort']>;

/**
 * The columns, each with the fields it sorts by. Kind sits under the object's name, the boundary under the instance
 * and the time of the last change under the state: eight columns ran the table to 1,580 px at 1280.
 */
const COLUMNS: Array<{ title: string; sorts: Array<{ label: string; sort: SortField }> }> = [
  { title: 'Cluster', sorts: [{ label: 'Cluster', sort: 'cluster' }] },
  {
    title: 'Object',
    sorts: [
      { label: 'Object', sort: 'name' },
      { label: 'Kind', sort: 'kind' },
    ],
  },
  { title: 'Instance / shard and boundary', sorts: [] },
  {
    title: 'State',
    sorts: [
      { label: 'State', sort: 'state' },
      { label: 'Changed', sort: 'updatedAt' },
    ],
  },
  { title: 'Findings', sorts: [] },
];

/**
 * Every Flux object of the fleet that matches the filters, one server page at a time (cursor paging: 100k objects
 * cost one page of rows), sorted by the server. Rows open the object's detail view. `refreshTick` re-reads the
 * current page in place when it changes (live updates).
 *
 * Test ids: `flux-fleet-fleet-objects` (the table), `flux-fleet-page-range` ("1–100 of 100,000"),
 * `flux-fleet-object-filters`; buttons "Previous page", "Next page"; the page size select "Rows per page".
 */
export const FleetObjectsTable = (props: {
  clusters: EntityClusterHealth[];
  filters: ObjectFilters;
  onFiltersChange: (filters: ObjectFilters) => void;
  onOpen: (ref: FluxObjectRef) => void;
  refreshTick: number;
}) => {
  const { clusters, filters, onFiltersChange, onOpen, refreshTick } = props;
  const classes = useStyles();
  const errorText = useErrorTextClass();
  const [limit, setLimit] = useState(100);
  const pages = useCursorPages(filters, limit);
  const { page } = pages;
  const refresh = page.refresh;

  useEffect(() => {
    if (refreshTick > 0) {
      refresh();
    }
  }, [refreshTick, refresh]);

  const sortBy = (sort: SortField) => {
    const order =
      filters.sort === sort && filters.order !== 'desc' ? 'desc' : 'asc';
    onFiltersChange({ ...filters, sort, order });
  };

  const items = page.value?.items ?? [];
  const total = page.value?.totalCount ?? 0;
  const first = total === 0 ? 0 : pages.offset + 1;
  const last = pages.offset + items.length;

  return (
    <Box>
      <FleetObjectFilters
        clusters={clusters.map(c => c.name)}
        filters={filters}
        onChange={onFiltersChange}
      />
      {page.error && (
        <LoadError
          what={`the objects${
            page.value ? ' (showing the page read before)' : ''
          }`}
          error={page.error}
          onRetry={page.refresh}
        />
      )}
      <Paper>
        {page.loading && <LinearProgress aria-label="Loading objects" />}
        <TableContainer>
          <Table
            size="small"
            className={classes.table}
            data-testid="flux-fleet-fleet-objects"
          >
            <TableHead>
              <TableRow>
                {COLUMNS.map(column => {
                  const active = column.sorts.find(c => c.sort === filters.sort);
                  return (
                    <TableCell
                      key={column.title}
                      // titles wrap between words: "Instance / shard and boundary" on one line widened its column
                      style={WORDS_CELL}
                      sortDirection={active ? filters.order ?? 'asc' : false}
                    >
                      {column.sorts.length === 0
                        ? column.title
                        : column.sorts.map((c, n) => (
                            <Fragment key={c.sort}>
                              {n > 0 && ' · '}
                              <TableSortLabel
                                active={filters.sort === c.sort}
                                // the hidden arrow of an inactive label left a gap before " · Kind"
                                hideSortIcon
                                direction={
                                  filters.sort === c.sort
                                    ? filters.order ?? 'asc'
                                    : 'asc'
                                }
                                onClick={() => sortBy(c.sort)}
                              >
                                {c.label}
                              </TableSortLabel>
                            </Fragment>
                          ))}
                    </TableCell>
                  );
                })}
              </TableRow>
            </TableHead>
            <TableBody>
              {items.map(o => (
                <TableRow key={o.key} hover>
                  {/* names break after their hyphens even where words are kept whole ("prod-ap- southeast-1") */}
                  <TableCell style={NOWRAP_CELL}>{o.ref.cluster}</TableCell>
                  <TableCell>
                    <Link
                      component="button"
                      variant="body2"
                      onClick={() => onOpen(o.ref)}
                      aria-label={`Details of ${objectTitle(o.ref)} in ${
                        o.ref.cluster
                      }`}
                      style={{ textAlign: 'left' }}
                      data-testid="flux-fleet-object-name"
                    >
                      <BreakablePath parts={[o.ref.namespace, o.ref.name]} />
                    </Link>
                    <SecondLine testId="flux-fleet-object-kind">{o.ref.kind}</SecondLine>
                  </TableCell>
                  <TableCell style={NOWRAP_CELL}>
                    <Typography
                      variant="body2"
                      className={o.owner.status === 'ok' ? undefined : errorText}
                    >
                      {ownerLabel(o.owner)}
                    </Typography>
                    <SecondLine>
                      {ENFORCEMENT_LABEL[o.boundary.enforcement]}
                      {o.boundary.tenant ? ` · ${o.boundary.tenant}` : ''}
                    </SecondLine>
                  </TableCell>
                  <TableCell>
                    <ReconcileStateLabel object={o} compact />
                    <SecondLine>
                      changed <RelativeTime time={o.updatedAt} />
                    </SecondLine>
                  </TableCell>
                  <TableCell>
                    {o.findings.map(f => (
                      <Chip
                        key={f}
                        size="small"
                        label={FINDING_LABEL[f]}
                        style={{ margin: 2 }}
                      />
                    ))}
                  </TableCell>
                </TableRow>
              ))}
              {page.value && items.length === 0 && (
                <TableRow>
                  <TableCell colSpan={COLUMNS.length}>
                    No Flux object matches these filters.
                  </TableCell>
                </TableRow>
              )}
            </TableBody>
          </Table>
        </TableContainer>
        <Box
          display="flex"
          alignItems="center"
          justifyContent="flex-end"
          p={1}
          style={{ gap: 16 }}
        >
          <TextField
            select
            size="small"
            label="Rows per page"
            // wide enough for its label, which would otherwise wrap over the value
            style={{ minWidth: 120 }}
            value={limit}
            onChange={e => setLimit(Number(e.target.value))}
            SelectProps={{
              // the shown value within the name (axe: label-content-name-mismatch)
              SelectDisplayProps: { 'aria-label': `Rows per page: ${limit}` } as any,
            }}
          >
            {PAGE_SIZES.map(size => (
              <MenuItem key={size} value={size}>
                {size}
              </MenuItem>
            ))}
          </TextField>
          <Typography variant="body2" data-testid="flux-fleet-page-range">
            {first.toLocaleString('en-US')}–{last.toLocaleString('en-US')} of{' '}
            {total.toLocaleString('en-US')}
          </Typography>
          <Button
            size="small"
            onClick={pages.previous}
            disabled={!pages.hasPrevious || page.loading}
          >
            Previous page
          </Button>
          <Button
            size="small"
            onClick={pages.next}
            disabled={!pages.hasNext || page.loading}
          >
            Next page
          </Button>
        </Box>
      </Paper>
    </Box>
  );
};
