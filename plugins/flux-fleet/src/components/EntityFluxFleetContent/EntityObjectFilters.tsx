import Box from '@material-ui/core/Box';
import MenuItem from '@material-ui/core/MenuItem';
import { makeStyles } from '@material-ui/core/styles';
import TextField from '@material-ui/core/TextField';

// the theme's secondary text colour on the page background is below 4.5:1 (axe color-contrast): labels in primary
const useStyles = makeStyles(theme => ({
  filters: { '& label': { color: theme.palette.text.primary } },
}));
import { FleetObject } from '@flux-fleet/plugin-flux-fleet-common';
import { STATE_LABEL } from '../../lib/stateText';
import { EntityObjectFilter } from './entityObjectFilter';

const Select = (props: {
  label: string;
  value: string;
  options: Array<{ value: string; label: string }>;
  onChange: (value: string) => void;
}) => (
  <TextField
    select
    size="small"
    variant="outlined"
    label={props.label}
    value={props.value}
    onChange={e => props.onChange(e.target.value)}
    style={{ minWidth: 160 }}
    SelectProps={{
      SelectDisplayProps: {
        'aria-label': `Filter by ${props.label.toLocaleLowerCase('en-US')}`,
      } as any,
    }}
  >
    <MenuItem value="">All</MenuItem>
    {props.options.map(o => (
      <MenuItem key={o.value} value={o.value}>
        {o.label}
      </MenuItem>
    ))}
  </TextField>
);

const distinct = (values: string[]) => [...new Set(values)].sort();

/**
 * Filters of the entity tab: cluster, kind and state (offering only values the entity's objects have) and free
 * text.
 *
 * Test ids: `flux-fleet-filters`; the controls are named "Filter by cluster", "Filter by kind",
 * "Filter by state" and "Search".
 */
export const EntityObjectFilters = (props: {
  objects: FleetObject[];
  filter: EntityObjectFilter;
  onChange: (filter: EntityObjectFilter) => void;
}) => {
  const { objects, filter, onChange } = props;
  const classes = useStyles();
  return (
    <Box
      className={classes.filters}
      data-testid="flux-fleet-filters"
      display="flex"
      flexWrap="wrap"
      style={{ gap: 12 }}
      mb={2}
    >
      <Select
        label="Cluster"
        value={filter.cluster}
        options={distinct(objects.map(o => o.ref.cluster)).map(c => ({
          value: c,
          label: c,
        }))}
        onChange={cluster => onChange({ ...filter, cluster })}
      />
      <Select
        label="Kind"
        value={filter.kind}
        options={distinct(objects.map(o => o.ref.kind)).map(k => ({
          value: k,
          label: k,
        }))}
        onChange={kind =>
          onChange({ ...filter, kind: kind as EntityObjectFilter['kind'] })
        }
      />
      <Select
        label="State"
        value={filter.state}
        options={distinct(objects.map(o => o.state.state)).map(s => ({
          value: s,
          label: STATE_LABEL[s as keyof typeof STATE_LABEL],
        }))}
        onChange={state =>
          onChange({ ...filter, state: state as EntityObjectFilter['state'] })
        }
      />
      <TextField
        size="small"
        variant="outlined"
        label="Search"
        value={filter.text}
        onChange={e => onChange({ ...filter, text: e.target.value })}
        inputProps={{ 'aria-label': 'Search' }}
      />
    </Box>
  );
};
