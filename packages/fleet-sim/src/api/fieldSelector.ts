/**
 * Field selectors as kube-apiserver supports them for the resources served here: `metadata.name` and
 * `metadata.namespace` everywhere, plus the Event fields `kubectl describe` uses and the Pod fields.
 */
import { SelectorParseError } from './labelSelector';

/** One `field=value` or `field!=value` term. */
export interface FieldRequirement {
  field: string;
  value: string;
  negate: boolean;
}

const EVENT_FIELDS = [
  'involvedObject.kind',
  'involvedObject.namespace',
  'involvedObject.name',
  'involvedObject.uid',
  'involvedObject.apiVersion',
  'involvedObject.resourceVersion',
  'involvedObject.fieldPath',
  'reason',
  'reportingComponent',
  'source',
  'type',
];

/** The Pod fields kube-apiserver lets a field selector use (besides metadata.name and metadata.namespace). */
const POD_FIELDS = [
  'spec.nodeName',
  'spec.restartPolicy',
  'spec.schedulerName',
  'spec.serviceAccountName',
  'spec.hostNetwork',
  'status.phase',
  'status.podIP',
  'status.nominatedNodeName',
];

/** Parses a field selector for a kind; unsupported fields are rejected as kube-apiserver does. */
export function parseFieldSelector(
  text: string | undefined,
  kind: string,
): FieldRequirement[] {
  if (text === undefined || text.trim() === '') return [];
  return text.split(',').map(raw => {
    const m = /^\s*([^=!\s]+)\s*(==|=|!=)\s*(.*?)\s*$/.exec(raw);
    if (!m) {
      throw new SelectorParseError(
        `invalid selector: '${text}'; can't understand '${raw}'`,
      );
    }
    const field = m[1];
    const supported =
      field === 'metadata.name' ||
      field === 'metadata.namespace' ||
      (kind === 'Event' && EVENT_FIELDS.includes(field)) ||
      (kind === 'Pod' && POD_FIELDS.includes(field));
    if (!supported) {
      throw new SelectorParseError(`field label not supported: ${field}`);
    }
    return { field, value: m[3], negate: m[2] === '!=' };
  });
}

/** Whether a field requirement needs the object body (anything beyond name and namespace). */
export function needsBody(requirements: FieldRequirement[]): boolean {
  return requirements.some(
    r => r.field !== 'metadata.name' && r.field !== 'metadata.namespace',
  );
}

function fieldValue(object: any, field: string): string {
  if (field === 'source') return String(object?.source?.component ?? '');
  let value: any = object;
  for (const part of field.split('.')) value = value?.[part];
  return value === undefined || value === null ? '' : String(value);
}

/** Whether an object satisfies every field requirement. `object` may be a stub with only metadata. */
export function matchesFields(
  requirements: FieldRequirement[],
  object: { metadata?: { name?: string; namespace?: string } } | any,
): boolean {
  for (const req of requirements) {
    const actual = fieldValue(object, req.field);
    if ((actual === req.value) === req.negate) return false;
  }
  return true;
}
