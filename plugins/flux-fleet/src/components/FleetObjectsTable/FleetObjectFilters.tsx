import Box from '@material-ui/core/Box';
import Button from '@material-ui/core/Button';
import MenuItem from '@material-ui/core/MenuItem';
import TextField from '@material-ui/core/TextField';
import { makeStyles } from '@material-ui/core/styles';
import {
  FINDING_TYPES,
  FLUX_KINDS,
  OWNER_STATUSES,
  RECONCILE_STATES,
} from '@flux-fleet/plugin-flux-fleet-common';
import { useEffect, useState } from 'react';
import useDebounce from 'react-use/esm/useDebounce';
import { FINDING_LABEL } from '../../lib/findingText';
import { STATE_LABEL } from '../../lib/stateText';
import { ObjectFilters } from './useCursorPages';

/** How long typing pauses before a text filter asks the server. */
const TEXT_FILTER_DELAY_MS = 300;

type ListFilter = 'cluster' | 'kind' | 'state' | 'owner' | 'finding';
type TextFilter = 'instance' | 'shard' | 'tenant' | 'namespace' | 'service';

/**
 * The filters' labels in the primary text colour: they sit on the page's background (#f5f5f5), where the secondary
 * colour of Material UI's labels is 4.47:1 (axe's color-contrast wants 4.5:1).
 */
const useStyles = makeStyles(theme => ({
  label: { color: theme.palette.text.primary },
}));

const MultiSelect = (props: {
  label: string;
  values: readonly string[];
  options: ReadonlyArray<{ value: string; label: string }>;
  onChange: (values: string[]) => void;
}) => (
  <TextField
    select
    size="small"
    variant="outlined"
    label={props.label}
    value={props.values}
    InputLabelProps={{ className: useStyles().label }}
    style={{ minWidth: 150, maxWidth: 260 }}
    SelectProps={{
      multiple: true,
      renderValue: selected => (selected as string[]).join(', '),
      // the values shown within the name (axe: label-content-name-mismatch)
      SelectDisplayProps: {
        'aria-label': [`Filter by ${props.label.toLocaleLowerCase('en-US')}`, props.values.join(', ')]
          .filter(Boolean)
          .join(': '),
      } as any,
    }}
    onChange={e => props.onChange(e.target.value as unknown as string[])}
  >
    {props.options.map(o => (
      <MenuItem key={o.value} value={o.value}>
        {o.label}
      </MenuItem>
    ))}
  </TextField>
);

/** A text filter that asks the server once typing pauses, not on every key. */
const DebouncedText = (props: {
  label: string;
  value: string;
  onCommit: (value: string) => void;
}) => {
  const { label, value, onCommit } = props;
  const classes = useStyles();
  const [text, setText] = useState(value);
  useEffect(() => setText(value), [value]);
  useDebounce(
    () => {
      if (text !== value) {
        onCommit(text);
      }
    },
    TEXT_FILTER_DELAY_MS,
    [text],
  );
  return (
    <TextField
      size="small"
      variant="outlined"
      label={label}
      value={text}
      InputLabelProps={{ className: classes.label }}
      onChange={e => setText(e.target.value)}
      inputProps={{ 'aria-label': label }}
      style={{ width: label === 'Search' ? 220 : 140 }}
    />
  );
};

const LIST_OPTIONS: Record<
  Exclude<ListFilter, 'cluster'>,
  { label: string; options: Array<{ value: string; label: string }> }
> = {
  kind: {
    label: 'Kind',
    options: FLUX_KINDS.map(k => ({ value: k, label: k })),
  },
  state: {
    label: 'State',
    options: RECONCILE_STATES.map(s => ({ value: s, label: STATE_LABEL[s] })),
  },
  owner: {
    label: 'Owner',
    options: OWNER_STATUSES.map(s => ({ value: s, label: s })),
  },
  finding: {
    label: 'Finding',
    options: FINDING_TYPES.map(t => ({ value: t, label: FINDING_LABEL[t] })),
  },
};

const TEXT_FILTERS: Array<{ name: TextFilter; label: string }> = [
  { name: 'instance', label: 'Instance' },
  { name: 'shard', label: 'Shard' },
  { name: 'tenant', label: 'Tenant' },
  { name: 'namespace', label: 'Namespace' },
  { name: 'service', label: 'Service' },
];

/**
 * The filters of `GET /objects`: lists (cluster, kind, state, owner, finding) as multi-selects, names (instance,
 * shard, tenant, namespace, service) and free text as debounced text fields. Every change goes to the server.
 *
 * Test ids: `flux-fleet-object-filters`; the selects are named "Filter by cluster", "Filter by kind",
 * "Filter by state", "Filter by owner", "Filter by finding"; the text fields by their label ("Shard", "Search"…);
 * the reset button "Clear filters".
 */
export const FleetObjectFilters = (props: {
  clusters: string[];
  filters: ObjectFilters;
  onChange: (filters: ObjectFilters) => void;
}) => {
  const { clusters, filters, onChange } = props;
  const setList = (name: ListFilter, values: string[]) =>
    onChange({ ...filters, [name]: values.length > 0 ? values : undefined });
  const setText = (name: TextFilter | 'q', value: string) => {
    const trimmed = value.trim();
    if (name === 'q') {
      onChange({ ...filters, q: trimmed || undefined });
    } else {
      const values = trimmed
        .split(',')
        .map(v => v.trim())
        .filter(Boolean);
      onChange({ ...filters, [name]: values.length > 0 ? values : undefined });
    }
  };
  return (
    <Box
      data-testid="flux-fleet-object-filters"
      display="flex"
      flexWrap="wrap"
      alignItems="center"
      style={{ gap: 12 }}
      mb={2}
    >
      <DebouncedText
        label="Search"
        value={filters.q ?? ''}
        onCommit={value => setText('q', value)}
      />
      <MultiSelect
        label="Cluster"
        values={filters.cluster ?? []}
        options={clusters.map(c => ({ value: c, label: c }))}
        onChange={values => setList('cluster', values)}
      />
      {(Object.keys(LIST_OPTIONS) as Array<keyof typeof LIST_OPTIONS>).map(
        name => (
          <MultiSelect
            key={name}
            label={LIST_OPTIONS[name].label}
            values={(filters[name] as string[] | undefined) ?? []}
            options={LIST_OPTIONS[name].options}
            onChange={values => setList(name, values)}
          />
        ),
      )}
      {TEXT_FILTERS.map(({ name, label }) => (
        <DebouncedText
          key={name}
          label={label}
          value={filters[name]?.join(',') ?? ''}
          onCommit={value => setText(name, value)}
        />
      ))}
      <Button
        size="small"
        onClick={() => onChange({ sort: filters.sort, order: filters.order })}
      >
        Clear filters
      </Button>
    </Box>
  );
};
