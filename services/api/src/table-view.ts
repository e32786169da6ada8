/**
 * A read-only view of the store that holds only one table's stream. explainRound (services/replay) looks for a
 * round's table by reading the whole store from the start; the API already knows the table from its index, so it
 * hands explainRound this view and the search reads only that table's events.
 */
import type { EventStore, ReadAllOptions, RecordedEvent } from '@table-audit/eventstore';
import { tableStream } from '@table-audit/schemas/streams';

export function tableView(store: EventStore, tableId: string): EventStore {
  const stream = tableStream(tableId);
  const refuse = (what: string) => () =>
    Promise.reject(new Error(`the view of table ${tableId} is read-only: no ${what}`));
  return {
    readStream: (name, options) =>
      name === stream ? store.readStream(name, options) : (async function* () {})(),
    async *readAll(options: ReadAllOptions = {}): AsyncIterable<RecordedEvent> {
      let n = 0;
      for await (const e of store.readStream(stream)) {
        if (options.fromPosition !== undefined && e.position <= options.fromPosition) continue;
        if (options.maxCount !== undefined && n++ >= options.maxCount) return;
        yield e;
      }
    },
    append: refuse('append'),
    subscribeToAll: () => {
      throw new Error(`the view of table ${tableId} cannot be subscribed to`);
    },
    saveCheckpoint: refuse('checkpoint'),
    loadCheckpoint: () => Promise.resolve(null),
    close: () => Promise.resolve(),
  };
}
