import { Fragment } from 'react';
import { Table, TableColumn } from '@backstage/core-components';
import Typography from '@material-ui/core/Typography';
import { InventoryEntry } from '@flux-fleet/plugin-flux-fleet-common';

/**
 * An API version that wraps only after its dots and its slash (`helm.toolkit.fluxcd.io/` then `v2`), never inside a
 * word: in the drawer at 1280 px the table's cells broke `fluxcd` mid-word.
 */
export const ApiVersion = (props: { value: string }) => {
  const parts = props.value.split(/(?<=[./])/);
  return (
    <span style={{ wordBreak: 'normal', overflowWrap: 'normal' }}>
      {parts.map((part, i) => (
        <Fragment key={i}>
          {part}
          {i < parts.length - 1 && <wbr />}
        </Fragment>
      ))}
    </span>
  );
};

const columns: TableColumn<InventoryEntry>[] = [
  { title: 'Kind', field: 'kind' },
  { title: 'Namespace', field: 'namespace', emptyValue: '(cluster)' },
  { title: 'Name', field: 'name' },
  {
    title: 'API version',
    render: e => (
      <ApiVersion value={e.group ? `${e.group}/${e.version}` : e.version} />
    ),
  },
];

/**
 * What a reconciler applied (its `status.inventory`), searchable and paged so large inventories stay light.
 *
 * Test ids: `flux-fleet-inventory`.
 */
export const InventoryTable = (props: { inventory: InventoryEntry[] }) => {
  const { inventory } = props;
  if (inventory.length === 0) {
    return (
      <Typography
        variant="body2"
        color="textSecondary"
        data-testid="flux-fleet-inventory"
      >
        No inventory: it has applied nothing yet, or its kind keeps none.
      </Typography>
    );
  }
  return (
    <div data-testid="flux-fleet-inventory">
      <Table<InventoryEntry>
        title={`Inventory (${inventory.length})`}
        columns={columns}
        data={inventory}
        options={{
          paging: inventory.length > 20,
          pageSize: 20,
          search: inventory.length > 20,
          padding: 'dense',
        }}
      />
    </div>
  );
};
