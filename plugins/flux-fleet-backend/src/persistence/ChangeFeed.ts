import type { LoggerService } from '@backstage/backend-plugin-api';
import { CHANGES_CHANNEL, ChangeNotice, parseNotice } from './DeltaStore';
import type { Knex } from './SnapshotStore';

/** How long the feed waits before listening again after its connection failed. */
const RECONNECT_MS = 1_000;

/** The part of node-postgres' client the feed uses. */
interface ListeningClient {
  query(sql: string): Promise<unknown>;
  on(event: 'notification', listener: (message: { channel: string; payload?: string }) => void): void;
  on(event: 'error' | 'end', listener: (error?: Error) => void): void;
  removeAllListeners(event?: string): void;
}

/** Whether the database is PostgreSQL (knex's `pg` client), where replicas announce changes with NOTIFY. */
export function canListen(knex: Knex): boolean {
  const client = (knex.client as { config?: { client?: unknown } }).config?.client;
  return client === 'pg' || client === 'postgres' || client === 'postgresql';
}

/**
 * Listens on {@link CHANGES_CHANNEL} through one connection of knex's pool, held for as long as the feed runs
 * (LISTEN belongs to a session). When the connection fails it listens again after a second, and calls
 * `reconnected` so its owner catches up on what was announced meanwhile: notifications are not queued for a
 * session that is gone.
 */
export class ChangeFeed {
  private connection?: ListeningClient;
  private retry?: NodeJS.Timeout;
  private stopped = false;

  constructor(
    private readonly knex: Knex,
    private readonly logger: LoggerService,
    private readonly onNotice: (notice: ChangeNotice) => void,
    private readonly reconnected: () => void,
  ) {}

  async start(): Promise<void> {
    await this.listen(false);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    const connection = this.connection;
    this.connection = undefined;
    if (!connection) return;
    connection.removeAllListeners('notification');
    try {
      await connection.query(`UNLISTEN ${CHANGES_CHANNEL}`);
    } catch {
      // the connection is going anyway
    }
    await this.release(connection);
  }

  private async listen(again: boolean): Promise<void> {
    if (this.stopped) return;
    let connection: ListeningClient | undefined;
    try {
      connection = (await this.knex.client.acquireConnection()) as ListeningClient;
      connection.on('notification', message => {
        if (message.channel !== CHANGES_CHANNEL) return;
        const notice = parseNotice(message.payload);
        if (notice) this.onNotice(notice);
      });
      const lost = (error?: Error) => this.lost(connection!, error);
      connection.on('error', lost);
      connection.on('end', lost);
      await connection.query(`LISTEN ${CHANGES_CHANNEL}`);
      this.connection = connection;
      if (again) {
        this.logger.info('Flux Fleet listens for other replicas’ changes again; catching up');
        this.reconnected();
      }
    } catch (error) {
      if (connection) await this.release(connection);
      this.logger.warn(
        `Flux Fleet cannot listen for other replicas’ changes (PostgreSQL LISTEN ${CHANGES_CHANNEL}); trying again in ${
          RECONNECT_MS / 1000
        } s, meanwhile changes arrive with the snapshots: ${error}`,
      );
      this.schedule();
    }
  }

  private lost(connection: ListeningClient, error?: Error) {
    if (this.connection !== connection) return;
    this.connection = undefined;
    connection.removeAllListeners('notification');
    this.logger.warn(`Flux Fleet lost its connection listening for other replicas’ changes: ${error ?? 'closed'}`);
    void this.release(connection);
    this.schedule();
  }

  private schedule() {
    if (this.stopped) return;
    clearTimeout(this.retry);
    this.retry = setTimeout(() => void this.listen(true), RECONNECT_MS);
    this.retry.unref?.();
  }

  private async release(connection: ListeningClient) {
    try {
      await this.knex.client.releaseConnection(connection);
    } catch {
      // a broken connection is dropped by the pool
    }
  }
}
