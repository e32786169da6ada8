/**
 * appendMany for a store that cannot make it one transaction, or has none: each part appended in order (each atomic
 * on its own), then the checkpoint. Shared by the EventStoreDB adapter and `appendToStreams`.
 */
import { checkAppendManyArguments } from './append-input.ts';
import type { AppendManyOptions, AppendResult, EventStore, StreamAppend } from './port.ts';

export async function appendPartByPart(
  store: Pick<EventStore, 'append' | 'saveCheckpoint'>,
  appends: readonly StreamAppend[],
  options: AppendManyOptions = {},
): Promise<AppendResult[]> {
  checkAppendManyArguments(appends, options);
  const results: AppendResult[] = [];
  for (const a of appends)
    results.push(
      await store.append(
        a.stream,
        a.events,
        a.expectedRevision === undefined ? {} : { expectedRevision: a.expectedRevision },
      ),
    );
  if (options.checkpoint) await store.saveCheckpoint(options.checkpoint.name, options.checkpoint.position);
  return results;
}

/** store.appendMany when it has one, else part by part (not atomic across streams). */
export function appendToStreams(
  store: EventStore,
  appends: readonly StreamAppend[],
  options: AppendManyOptions = {},
): Promise<AppendResult[]> {
  return store.appendMany ? store.appendMany(appends, options) : appendPartByPart(store, appends, options);
}
