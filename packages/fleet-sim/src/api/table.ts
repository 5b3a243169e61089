/**
 * Server-side table printing (`Accept: application/json;as=Table;g=meta.k8s.io;v=v1`), which `kubectl get`
 * asks for: a Name column, then the resource's printer columns, one row per object.
 */
import { evaluateJsonPath } from './jsonPath';
import type { PrinterColumn, ResourceType } from './resourceTypes';

/** `kubectl`'s human duration (k8s.io/apimachinery/pkg/util/duration.HumanDuration). */
export function humanDuration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.floor(ms / 60000);
  if (minutes < 10) {
    const s = Math.floor(ms / 1000) % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 180) return `${minutes}m`;
  const hours = Math.floor(ms / 3600000);
  if (hours < 8) {
    const m = minutes % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) {
    const h = hours % 24;
    return h === 0
      ? `${Math.floor(hours / 24)}d`
      : `${Math.floor(hours / 24)}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${Math.floor(hours / 24)}d`;
  if (hours < 24 * 365 * 8) {
    const days = Math.floor(hours / 24) % 365;
    const years = Math.floor(hours / 24 / 365);
    return days === 0 ? `${years}y` : `${years}y${days}d`;
  }
  return `${Math.floor(hours / 24 / 365)}y`;
}

function cell(object: any, column: PrinterColumn, now: number): unknown {
  if (
    column.jsonPath === '.status.readyReplicas' &&
    object?.kind === 'Deployment'
  ) {
    return `${object.status?.readyReplicas ?? 0}/${object.spec?.replicas ?? 0}`;
  }
  if (
    column.jsonPath === '.status.containerStatuses' &&
    object?.kind === 'Pod'
  ) {
    const statuses: any[] = object.status?.containerStatuses ?? [];
    return `${statuses.filter(s => s?.ready).length}/${
      object.spec?.containers?.length ?? 0
    }`;
  }
  const values = evaluateJsonPath(object, column.jsonPath);
  if (values.length === 0) return null;
  const value = values[0];
  if (column.type === 'date') {
    const time = Date.parse(String(value));
    return Number.isNaN(time) ? null : humanDuration(now - time);
  }
  if (column.type === 'integer' || column.type === 'number') {
    return typeof value === 'number' ? value : null;
  }
  if (column.type === 'boolean')
    return typeof value === 'boolean' ? value : null;
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** How much of each object a table row carries (`?includeObject=`). */
export type IncludeObject = 'None' | 'Metadata' | 'Object';

/** The column definitions of a resource's table. */
export function tableColumns(
  type: ResourceType,
): Array<Record<string, unknown>> {
  return [
    {
      name: 'Name',
      type: 'string',
      format: 'name',
      description:
        'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically.',
      priority: 0,
    },
    ...type.columns.map(c => ({
      name: c.name,
      type: c.type,
      format: '',
      description: c.description ?? '',
      priority: c.priority ?? 0,
    })),
  ];
}

/** One table row of an object. */
export function tableRow(
  type: ResourceType,
  object: any,
  include: IncludeObject,
  now: number,
): Record<string, unknown> {
  const row: Record<string, unknown> = {
    cells: [
      object?.metadata?.name,
      ...type.columns.map(c => cell(object, c, now)),
    ],
  };
  if (include === 'Object') {
    row.object = object;
  } else if (include === 'Metadata') {
    row.object = {
      kind: 'PartialObjectMetadata',
      apiVersion: 'meta.k8s.io/v1',
      metadata: object?.metadata ?? {},
    };
  }
  return row;
}

/** Whether an Accept header asks for a Table. */
export function wantsTable(accept: string | undefined): boolean {
  return (
    accept !== undefined &&
    /as=Table/.test(accept) &&
    /g=meta\.k8s\.io/.test(accept)
  );
}

/** The Table API version the client accepts first (`v1`, or `v1beta1` for old clients). */
export function tableVersion(accept: string): string {
  const first = accept.split(',').find(part => /as=Table/.test(part)) ?? '';
  return /v=v1beta1/.test(first) ? 'meta.k8s.io/v1beta1' : 'meta.k8s.io/v1';
}
