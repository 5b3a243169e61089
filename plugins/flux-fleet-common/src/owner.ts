/**
 * Who reconciles a Flux object (rules §4): the controllers of its cluster that reconcile its kind, whose
 * namespace scope includes it and whose selector matches its labels. One candidate: `ok`; none: `orphan`; more:
 * `contested` (double reconcile).
 */
import { compareControllers } from './controller';
import {
  LabelSelector,
  matchesLabelSelector,
  parseLabelSelectorCached,
} from './labelSelector';
import type { FluxObjectRecord } from './record';
import type { FluxController, Owner } from './types';
import {
  ControllerComponent,
  FLUX_OPERATOR,
  FluxKind,
  KIND_RECONCILED_BY,
  MAIN_SHARD,
} from './vocabulary';

interface PreparedController {
  controller: FluxController;
  /** Null: selects every object; undefined: its selector does not parse, so it watches nothing. */
  selector: LabelSelector | null | undefined;
  /** The owner of the objects it alone watches, shared by all of them. */
  owner: Owner;
}

/** The part of a record ownership depends on. */
export type OwnedObject = Pick<
  FluxObjectRecord,
  'kind' | 'namespace' | 'labels'
>;

/** Answers ownership questions for the objects of one cluster, with its controllers prepared once. */
export interface OwnerResolver {
  /** The owner of an object (rules §4). Equal owners are the same frozen object: do not change them. */
  ownerOf(object: OwnedObject): Owner;
  /** The controllers that watch an object (its candidates), in instance, shard, name order. */
  candidatesOf(object: OwnedObject): FluxController[];
  /** Why no controller watches an object, in words (for orphans). */
  whyOrphan(object: OwnedObject): string;
}

const ORPHAN: Owner = Object.freeze({
  status: 'orphan',
  instance: null,
  shard: null,
  controller: null,
});

function prepare(controller: FluxController): PreparedController {
  const owner: Owner = Object.freeze({
    status: 'ok',
    instance: controller.instance,
    shard: controller.shard,
    controller: controller.name,
  });
  if (controller.selectorError !== undefined) {
    return { controller, selector: undefined, owner };
  }
  if (controller.selector === undefined || controller.selector.trim() === '') {
    return { controller, selector: null, owner };
  }
  return {
    controller,
    selector: parseLabelSelectorCached(controller.selector).selector,
    owner,
  };
}

function inScope(controller: FluxController, namespace: string): boolean {
  return controller.watchAllNamespaces || controller.instance === namespace;
}

function selects(
  prepared: PreparedController,
  labels: Readonly<Record<string, string>>,
): boolean {
  if (prepared.selector === null) return true;
  if (prepared.selector === undefined) return false;
  return matchesLabelSelector(prepared.selector, labels);
}

/** Prepares the controllers of one cluster for many ownership questions. */
export function createOwnerResolver(
  controllers: readonly FluxController[],
): OwnerResolver {
  const byComponent = new Map<ControllerComponent, PreparedController[]>();
  for (const controller of [...controllers].sort(compareControllers)) {
    const list = byComponent.get(controller.component) ?? [];
    list.push(prepare(controller));
    byComponent.set(controller.component, list);
  }
  const instances = new Set(controllers.map(c => c.instance));
  const owners = new Map<string, Owner>();

  function shared(key: string, build: () => Owner): Owner {
    let owner = owners.get(key);
    if (!owner) {
      owner = build();
      if (owner.candidates) owner.candidates.forEach(c => Object.freeze(c));
      Object.freeze(owner.candidates);
      owner = Object.freeze(owner);
      owners.set(key, owner);
    }
    return owner;
  }

  function candidatesOf(object: OwnedObject): FluxController[] {
    const reconciler = KIND_RECONCILED_BY[object.kind as FluxKind];
    if (
      reconciler === undefined ||
      reconciler === 'none' ||
      reconciler === FLUX_OPERATOR
    ) {
      return [];
    }
    const result: FluxController[] = [];
    for (const prepared of byComponent.get(reconciler) ?? []) {
      if (
        inScope(prepared.controller, object.namespace) &&
        selects(prepared, object.labels)
      ) {
        result.push(prepared.controller);
      }
    }
    return result;
  }

  function ownerOf(object: OwnedObject): Owner {
    const reconciler = KIND_RECONCILED_BY[object.kind as FluxKind];
    if (reconciler === FLUX_OPERATOR || reconciler === 'none') {
      // The operator's kinds and ExternalArtifact are never orphan or contested (rules §4, last item).
      const instance = instances.has(object.namespace)
        ? object.namespace
        : null;
      const controller = reconciler === FLUX_OPERATOR ? FLUX_OPERATOR : null;
      return shared(`op\n${instance}\n${controller}`, () => ({
        status: 'ok',
        instance,
        shard: instance === null ? null : MAIN_SHARD,
        controller,
      }));
    }
    // Most objects have exactly one candidate: find it without building a list.
    let only: PreparedController | undefined;
    let count = 0;
    for (const prepared of byComponent.get(reconciler) ?? []) {
      if (
        inScope(prepared.controller, object.namespace) &&
        selects(prepared, object.labels)
      ) {
        only = prepared;
        count++;
      }
    }
    if (count === 0) return ORPHAN;
    if (count === 1) return only!.owner;
    const candidates = candidatesOf(object);
    return shared(
      `contested\n${candidates.map(c => `${c.instance}/${c.name}`).join('\n')}`,
      () => ({
        status: 'contested',
        instance: null,
        shard: null,
        controller: null,
        candidates: candidates.map(c => ({
          instance: c.instance,
          shard: c.shard,
          controller: c.name,
        })),
      }),
    );
  }

  function whyOrphan(object: OwnedObject): string {
    const component = KIND_RECONCILED_BY[object.kind as FluxKind];
    const all = byComponent.get(component as ControllerComponent) ?? [];
    if (all.length === 0) {
      return `there is no ${component} in the cluster`;
    }
    const reasons = all.map(({ controller, selector }) => {
      const where = `${controller.instance}/${controller.name}`;
      if (selector === undefined) {
        return `${where} has a selector that does not parse, so it watches nothing`;
      }
      if (!inScope(controller, object.namespace)) {
        return `${where} watches only its own namespace (--watch-all-namespaces=false)`;
      }
      return `${where} selects ${controller.selector}`;
    });
    const labels = Object.entries(object.labels)
      .map(([k, v]) => `${k}=${v}`)
      .join(',');
    return `no ${component} watches it (labels: ${
      labels || 'none'
    }): ${reasons.join('; ')}`;
  }

  return { ownerOf, candidatesOf, whyOrphan };
}

/**
 * The owner of one object among the controllers of its cluster (rules §4). For many objects of one cluster,
 * prepare the controllers once with {@link createOwnerResolver}.
 */
export function deriveOwner(
  record: OwnedObject,
  controllersOfCluster: readonly FluxController[],
): Owner {
  return createOwnerResolver(controllersOfCluster).ownerOf(record);
}
