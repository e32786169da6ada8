/**
 * Opens what the configuration (config.ts) chooses, for every command: the event store (SQLite, or EventStoreDB /
 * KurrentDB) and the analytics target (chDB in-process, or a ClickHouse server). A --store PATH flag still means
 * a SQLite file, as it always has.
 */
import type { EventStore } from '@table-audit/eventstore';
import type { EventStoreDbEventStore } from '@table-audit/eventstore/eventstoredb';
import type { AnalyticsTarget } from '@table-audit/analytics';
import { basename } from 'node:path';
import { loadConfig, type Config } from './config.ts';
import { openStore, storePath } from './commands/store.ts';

/** @eventstore/db-client's client, as the adapter takes it */
type EventStoreDbClient = ConstructorParameters<typeof EventStoreDbEventStore>[0];

export interface OpenedEventStore {
  readonly store: EventStore;
  readonly kind: 'sqlite' | 'eventstoredb';
  /** for people: the SQLite file, or "EventStoreDB at esdb://host:2113" (no credentials) */
  readonly description: string;
  /** the SQLite file; undefined for EventStoreDB */
  readonly path: string | undefined;
  /** how signed anchors name the store, so that anchors of one store are never continued for another */
  readonly storeId: string;
  /** Closes it; after a failed command, a SQLite file this command created and left empty is removed. */
  close(failed: boolean): Promise<void>;
}

export interface OpenStoreOptions {
  /** the command's --store flag (a SQLite file), which wins over the configuration */
  readonly flag?: string | undefined;
  readonly mustExist?: boolean;
  readonly config?: Config;
  /** the EventStoreDB client for a connection string (tests give the adapter's stand-in client) */
  readonly connect?: (url: string) => EventStoreDbClient;
}

const shown = (url: string): string => {
  const u = new URL(url);
  return `${u.protocol}//${u.host}`;
};

export async function openConfiguredStore(o: OpenStoreOptions = {}): Promise<OpenedEventStore> {
  const config = o.config ?? loadConfig();
  if (o.flag !== undefined || config.store.kind === 'sqlite') {
    const path = o.flag !== undefined ? storePath(o.flag) : (config.store as { path: string }).path;
    const opened = openStore(path, o.mustExist ? { mustExist: true } : {});
    return {
      store: opened.store,
      kind: 'sqlite',
      description: path,
      path,
      storeId: `sqlite:${basename(path)}`,
      close: (failed) => opened.close(failed),
    };
  }
  const url = config.store.url;
  const { EventStoreDbEventStore: Adapter } = await import('@table-audit/eventstore/eventstoredb');
  let store: EventStoreDbEventStore;
  try {
    store = o.connect ? new Adapter(o.connect(url)) : Adapter.connect(url);
  } catch (e) {
    throw new Error(`cannot connect to EventStoreDB at ${shown(url)}: ${(e as Error).message}`);
  }
  return {
    store,
    kind: 'eventstoredb',
    description: `EventStoreDB at ${shown(url)}`,
    path: undefined,
    storeId: `eventstoredb:${new URL(url).host}`,
    close: () => store.close(),
  };
}

/** The analytics target: a ClickHouse server by URL, or chDB's directory (`dir` when the command has its own). */
export function configuredAnalyticsTarget(config: Config = loadConfig(), dir?: string): AnalyticsTarget {
  if (config.analytics.kind === 'clickhouse') return { url: config.analytics.url };
  return { path: dir ?? config.analytics.path };
}
