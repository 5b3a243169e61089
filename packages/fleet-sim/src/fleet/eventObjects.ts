/** The core Events Flux controllers emit about the objects they reconcile, as the generator writes them. */
import { type ConditionDetail } from './conditions';
import type { ReconcileStateName } from './model';
import type { GeneratorContext } from './generatorContext';

/** Events a controller emits about an object in a state. */
export function eventsFor(
  ctx: GeneratorContext,
  object: Record<string, any>,
  component: string,
  state: ReconcileStateName,
  detail: ConditionDetail,
  since: string,
): void {
  const warning =
    state === 'failed' || state === 'stalled' || state === 'blocked';
  if (!warning && !ctx.random.chance(0.06)) return;
  const [group] = String(object.apiVersion).split('/');
  const conditions = (object.status?.conditions ?? []) as Array<{
    type: string;
    reason: string;
    message: string;
  }>;
  const ready = conditions.find(c => c.type === 'Ready');
  const reason =
    ready?.reason ??
    (warning ? 'ReconciliationFailed' : 'ReconciliationSucceeded');
  const message =
    ready?.message ??
    `Reconciliation finished in ${ctx.random.int(1, 40)}.${ctx.random.int(
      0,
      9,
    )}s, next run in ${object.spec?.interval ?? '10m'}`;
  ctx.event({
    kind: object.kind,
    apiVersion: object.apiVersion,
    namespace: object.metadata.namespace,
    name: object.metadata.name,
    uid: object.metadata.uid,
    component,
    type: warning ? 'Warning' : 'Normal',
    reason:
      state === 'ready' && object.kind === 'Kustomization'
        ? 'ReconciliationSucceeded'
        : reason,
    message:
      state === 'ready' && object.kind === 'Kustomization'
        ? `Reconciliation finished in ${ctx.random.int(1, 40)}.${ctx.random.int(
            0,
            9,
          )}s, next run in ${object.spec.interval}`
        : message,
    time: since,
    revision: detail.revision,
    group,
  });
}

export function emitEvents(ctx: GeneratorContext): void {
  for (const e of ctx.events) {
    const suffix = ctx.random.hex(16);
    ctx.b.put({
      apiVersion: 'v1',
      kind: 'Event',
      metadata: {
        name: `${e.name}.${suffix}`,
        namespace: e.namespace,
        uid: ctx.b.uid(),
        creationTimestamp: e.time,
        ...(e.revision
          ? { annotations: { [`${e.group}/revision`]: e.revision } }
          : {}),
      },
      involvedObject: {
        kind: e.kind,
        namespace: e.namespace,
        name: e.name,
        uid: e.uid,
        apiVersion: e.apiVersion,
      },
      reason: e.reason,
      message: e.message,
      source: { component: e.component },
      firstTimestamp: e.time,
      lastTimestamp: e.time,
      count: e.type === 'Warning' ? ctx.random.int(1, 30) : 1,
      type: e.type,
      eventTime: null,
      reportingComponent: e.component,
      reportingInstance: '',
    });
  }
}
