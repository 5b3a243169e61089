import type { LoggerService } from '@backstage/backend-plugin-api';
import type { MalformedObject } from '@flux-fleet/plugin-flux-fleet-common';

/** At most this many malformed-object warnings per cluster and minute reach the log (a cluster full of them). */
const WARNINGS_PER_MINUTE = 20;

/** Most malformed objects remembered per cluster: past it the oldest are forgotten (the count says so). */
const MAX_REMEMBERED = 1_000;

/** The namespace and name of a raw object, as far as it has them. */
function identityOf(raw: unknown): { namespace: string; name: string } {
  const metadata = (raw as { metadata?: { namespace?: unknown; name?: unknown } } | null)?.metadata;
  const text = (v: unknown) => {
    if (typeof v === 'string') return v;
    return v === undefined ? '' : String(v);
  };
  return { namespace: text(metadata?.namespace), name: text(metadata?.name) || '?' };
}

/**
 * The objects of one cluster that were malformed as read: skipped ones (could not be read) and read ones served
 * with problems. Each is logged once, naming the cluster, kind, namespace/name and what is wrong (again only when
 * what is wrong changes), at most {@link WARNINGS_PER_MINUTE} a minute; it is forgotten when it is read clean,
 * deleted, or its cluster's list no longer has it.
 */
export class MalformedObjects {
  private readonly byId = new Map<string, MalformedObject>();
  private warnings = 0;
  private warningsWindow = 0;

  constructor(
    private readonly cluster: string,
    private readonly logger: LoggerService,
  ) {}

  /** How many there are. */
  get size(): number {
    return this.byId.size;
  }

  /** Every one, by kind, namespace and name. */
  list(): MalformedObject[] {
    return [...this.byId.values()].sort(
      (a, b) =>
        a.kind.localeCompare(b.kind) || a.namespace.localeCompare(b.namespace) || a.name.localeCompare(b.name),
    );
  }

  /** An object that could not be read at all. */
  skipped(kind: string, raw: unknown, error: string): void {
    const { namespace, name } = identityOf(raw);
    this.note({ cluster: this.cluster, kind, namespace, name, disposition: 'skipped', problems: [error] });
  }

  /** An object read, with `problems` (none: it is clean now). */
  read(kind: string, namespace: string, name: string, key: string, problems: readonly string[] | undefined): void {
    if (!problems || problems.length === 0) {
      this.byId.delete(idOf(kind, namespace, name));
      return;
    }
    this.note({ cluster: this.cluster, kind, namespace, name, disposition: 'read', problems: [...problems], key });
  }

  /** An object deleted, or no longer listed. */
  forget(kind: string, namespace: string, name: string): void {
    this.byId.delete(idOf(kind, namespace, name));
  }

  private note(object: MalformedObject) {
    const id = idOf(object.kind, object.namespace, object.name);
    const before = this.byId.get(id);
    const same = before?.problems.join('\n') === object.problems.join('\n');
    this.byId.delete(id);
    this.byId.set(id, object);
    if (this.byId.size > MAX_REMEMBERED) this.byId.delete(this.byId.keys().next().value!);
    if (same) return;
    const now = Date.now();
    if (now - this.warningsWindow > 60_000) {
      this.warningsWindow = now;
      this.warnings = 0;
    }
    if (this.warnings++ >= WARNINGS_PER_MINUTE) return;
    const what = object.disposition === 'skipped' ? 'skips' : 'reads, ignoring what is wrong,';
    this.logger.warn(
      `Flux Fleet ${what} ${object.kind} ${object.namespace}/${object.name} of cluster '${this.cluster}': ${object.problems.join('; ')}`,
    );
  }
}

function idOf(kind: string, namespace: string, name: string): string {
  return `${kind} ${namespace}/${name}`;
}
