/**
 * An in-memory imitation of the parts of @eventstore/db-client's EventStoreDBClient that EventStoreDbEventStore
 * uses, so the adapter's own logic (id index, retries, read-back, position and filter handling) runs in tests on a
 * machine without a server. It imitates the client's surface, not the server's every rule: the real check is the
 * conformance suite with EVENTSTORE_URL set.
 *
 * Deliberately awkward where the real server may be: positions are sparse (not 0, 1, 2…), $all holds system
 * events, readAll's and subscribeToAll's fromPosition are inclusive, and unsubscribe() does not end the stream.
 */
import { PassThrough, Readable } from 'node:stream';
import {
  ANY,
  BACKWARDS,
  END,
  NO_STREAM,
  START,
  STREAM_EXISTS,
  StreamNotFoundError,
  WrongExpectedVersionError,
  type AppendExpectedRevision,
  type EventData,
  type EventStoreDBClient,
  type Position,
  type ReadPosition,
  type ReadRevision,
} from '@eventstore/db-client';

interface StoredEvent {
  streamId: string;
  id: string;
  revision: bigint;
  type: string;
  created: Date;
  data: unknown;
  metadata: unknown;
  isJson: true;
  position: Position;
}

/** One "server": share it between clients to imitate several processes. */
export class FakeEventStoreDb {
  readonly all: StoredEvent[] = [];
  readonly streams = new Map<string, StoredEvent[]>();
  readonly live = new Set<(e: StoredEvent) => void>();
  #logPosition = 1000n;
  /** Appends to refuse with WrongExpectedVersion after writing a foreign event first (a concurrent writer). */
  interleaveForeignWrites = 0;

  constructor() {
    this.write('$stats-127.0.0.1:2113', [
      { id: crypto.randomUUID(), type: '$statsCollected', data: {}, metadata: undefined },
    ]);
  }

  write(
    streamId: string,
    events: ReadonlyArray<{ id: string; type: string; data: unknown; metadata: unknown }>,
  ) {
    const stream = this.streams.get(streamId) ?? [];
    this.streams.set(streamId, stream);
    for (const e of events) {
      const text = JSON.stringify(e.data); // what goes over the wire
      this.#logPosition += 137n + BigInt(text.length);
      const stored: StoredEvent = {
        streamId,
        id: e.id,
        revision: BigInt(stream.length),
        type: e.type,
        created: new Date(),
        data: JSON.parse(text) as unknown,
        metadata: e.metadata === undefined ? undefined : (JSON.parse(JSON.stringify(e.metadata)) as unknown),
        isJson: true,
        position: { commit: this.#logPosition, prepare: this.#logPosition },
      };
      stream.push(stored);
      this.all.push(stored);
      for (const notify of this.live) notify(stored);
    }
  }

  client(): EventStoreDBClient {
    return new FakeClient(this) as unknown as EventStoreDBClient;
  }
}

const streamingRead = (items: () => Iterable<{ event: StoredEvent }>) =>
  Object.assign(
    Readable.from(
      (function* () {
        yield* items();
      })(),
      { objectMode: true },
    ),
    { cancel: async () => {} },
  );

class FakeClient {
  constructor(private readonly server: FakeEventStoreDb) {}

  async appendToStream(
    streamName: string,
    events: EventData | EventData[],
    { expectedRevision = ANY }: { expectedRevision?: AppendExpectedRevision } = {},
  ) {
    const list = Array.isArray(events) ? events : [events];
    if (this.server.interleaveForeignWrites > 0 && !streamName.startsWith('$')) {
      this.server.interleaveForeignWrites--;
      this.server.write(streamName, [
        { id: crypto.randomUUID(), type: 'Foreign', data: { by: 'someone else' }, metadata: undefined },
      ]);
    }
    const current = BigInt((this.server.streams.get(streamName)?.length ?? 0) - 1);
    const holds =
      expectedRevision === ANY ||
      (expectedRevision === NO_STREAM && current === -1n) ||
      (expectedRevision === STREAM_EXISTS && current >= 0n) ||
      expectedRevision === current;
    if (!holds)
      throw new WrongExpectedVersionError(undefined, {
        streamName,
        expected: expectedRevision,
        current: current === -1n ? NO_STREAM : current,
      });
    this.server.write(streamName, list);
    return { success: true, nextExpectedRevision: current + BigInt(list.length), position: undefined };
  }

  readStream(
    streamName: string,
    {
      fromRevision = START,
      direction = 'forwards',
      maxCount = Number.MAX_SAFE_INTEGER,
    }: { fromRevision?: ReadRevision; direction?: string; maxCount?: number | bigint } = {},
  ) {
    const server = this.server;
    return streamingRead(function* () {
      const stream = server.streams.get(streamName);
      if (stream === undefined) throw new StreamNotFoundError(undefined, streamName);
      const backwards = direction === BACKWARDS;
      const from =
        fromRevision === START ? 0n : fromRevision === END ? BigInt(stream.length - 1) : fromRevision;
      const picked = backwards
        ? stream.filter((e) => e.revision <= from).reverse()
        : stream.filter((e) => e.revision >= from);
      for (const event of picked.slice(0, Number(maxCount))) yield { event };
    });
  }

  readAll({
    fromPosition = START,
    maxCount = Number.MAX_SAFE_INTEGER,
  }: { fromPosition?: ReadPosition; maxCount?: number | bigint } = {}) {
    const all = this.server.all;
    return streamingRead(function* () {
      const from = fromPosition === START ? -1n : fromPosition === END ? 2n ** 62n : fromPosition.commit;
      const picked = all.filter((e) => e.position.commit >= from); // inclusive, as the server's
      for (const event of picked.slice(0, Number(maxCount))) yield { event };
    });
  }

  subscribeToAll({
    fromPosition = START,
    filter,
  }: { fromPosition?: ReadPosition; filter?: { regex?: string } } = {}) {
    const out = new PassThrough({ objectMode: true });
    const from = fromPosition === START ? -1n : fromPosition === END ? 2n ** 62n : fromPosition.commit;
    const wanted = (e: StoredEvent) =>
      e.position.commit >= from && (filter?.regex === undefined || new RegExp(filter.regex).test(e.streamId));
    const notify = (event: StoredEvent) => {
      if (wanted(event)) out.write({ event });
    };
    for (const event of this.server.all) if (wanted(event)) out.write({ event });
    this.server.live.add(notify);
    return Object.assign(out, {
      unsubscribe: async () => void this.server.live.delete(notify), // the stream itself stays open
    });
  }

  async setStreamMetadata(streamName: string, metadata: unknown) {
    this.server.write(`$$${streamName}`, [
      { id: crypto.randomUUID(), type: '$metadata', data: metadata, metadata: undefined },
    ]);
    return { success: true, nextExpectedRevision: 0n };
  }

  async dispose() {}
}
