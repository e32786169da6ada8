/**
 * The conformance suite against a real EventStoreDB / KurrentDB, e.g.
 *   EVENTSTORE_URL='esdb://localhost:2113?tls=false' node scripts/run-tests.mjs eventstoredb
 * Point it at a throwaway server: the suite writes uniquely named streams and verifies the whole store.
 */
import { describe, it } from 'node:test';
import { eventStoreConformance } from '../src/conformance.ts';
import { EventStoreDbEventStore } from '../src/eventstoredb-event-store.ts';

const url = process.env.EVENTSTORE_URL;

if (url === undefined || url === '') {
  describe(
    'event store conformance: EventStoreDbEventStore',
    {
      skip: 'EVENTSTORE_URL is not set: no EventStoreDB/KurrentDB server to run against (set it to e.g. esdb://localhost:2113?tls=false)',
    },
    () => {
      it('runs the conformance suite against EventStoreDB', () => {});
    },
  );
} else {
  const connect = async () => EventStoreDbEventStore.connect(url);
  eventStoreConformance(`EventStoreDbEventStore at ${url}`, connect, {
    reopen: connect,
    liveTimeoutMs: 15_000,
  });
}
