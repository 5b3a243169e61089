/**
 * The parts of the Flux Operator's kinds (`fluxcd.controlplane.io/v1`) that Flux Fleet reads. Typed by hand from
 * the operator's CRDs (controlplaneio-fluxcd/flux-operator `config/crd/bases`), because
 * `@kubernetes-models/flux-cd` has no `fluxcd.controlplane.io` kinds. Only the fields read are typed.
 */
import type { IKustomization } from '@kubernetes-models/flux-cd/kustomize.toolkit.fluxcd.io/v1';

/** Kubernetes object metadata, as the Flux models type it. */
type ObjectMeta = NonNullable<IKustomization['metadata']>;
/** A status condition (`metav1.Condition`), as the Flux models type it. */
type Condition = NonNullable<
  NonNullable<IKustomization['status']>['conditions']
>[number];

/** `status.inventory` of FluxInstance and ResourceSet: what they applied. */
export interface OperatorInventory {
  entries: Array<{ id: string; v: string }>;
}

/** A FluxInstance: one Flux installation managed by the operator. */
export interface FluxInstance {
  apiVersion: 'fluxcd.controlplane.io/v1';
  kind: 'FluxInstance';
  metadata: ObjectMeta;
  spec: {
    distribution: { version: string; registry: string; artifact?: string };
    components?: string[];
    cluster?: {
      type?: string;
      size?: 'small' | 'medium' | 'large';
      domain?: string;
      multitenant?: boolean;
      networkPolicy?: boolean;
      tenantDefaultServiceAccount?: string;
    };
    sharding?: { key?: string; shards: string[]; storage?: string };
    storage?: { class: string; size: string };
    sync?: { kind: string; url: string; ref: string; path: string };
  };
  status?: {
    conditions?: Condition[];
    lastAppliedRevision?: string;
    lastAttemptedRevision?: string;
    lastHandledReconcileAt?: string;
    inventory?: OperatorInventory;
    components?: Array<{
      name: string;
      repository: string;
      tag: string;
      digest?: string;
    }>;
  };
}

/** A ResourceSet: templates the operator renders and applies. */
export interface ResourceSet {
  apiVersion: 'fluxcd.controlplane.io/v1';
  kind: 'ResourceSet';
  metadata: ObjectMeta;
  spec: {
    serviceAccountName?: string;
    dependsOn?: Array<{
      apiVersion: string;
      kind: string;
      name: string;
      namespace?: string;
      ready?: boolean;
      readyExpr?: string;
    }>;
    inputs?: Array<Record<string, unknown>>;
    resources?: Array<Record<string, unknown>>;
  };
  status?: {
    conditions?: Condition[];
    lastAppliedRevision?: string;
    lastHandledReconcileAt?: string;
    inventory?: OperatorInventory;
  };
}

/** A FluxReport: the operator's report on the installation (read-only). */
export interface FluxReport {
  apiVersion: 'fluxcd.controlplane.io/v1';
  kind: 'FluxReport';
  metadata: ObjectMeta;
  spec: Record<string, unknown>;
  status?: { conditions?: Condition[]; lastHandledReconcileAt?: string };
}

/** A ResourceSetInputProvider: inputs for ResourceSets (pull requests, tags…). */
export interface ResourceSetInputProvider {
  apiVersion: 'fluxcd.controlplane.io/v1';
  kind: 'ResourceSetInputProvider';
  metadata: ObjectMeta;
  spec: { type: string; url?: string; serviceAccountName?: string };
  status?: {
    conditions?: Condition[];
    lastExportedRevision?: string;
    lastHandledReconcileAt?: string;
  };
}
