import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { SqliteEventStore } from '@table-audit/eventstore/sqlite';
import { StoreIndex } from '../src/store-index.ts';
import { simulatedStore } from './fixture.ts';
import { findingsQueryConformance } from './findings-conformance.ts';

describe('FindingsQuery conformance: the store index', () => {
  let store: SqliteEventStore;
  let adapter: StoreIndex;
  before(async () => {
    ({ store } = await simulatedStore({ tables: 12, roundsPerTable: 15 }));
    adapter = new StoreIndex(store);
  });
  after(() => store.close());
  findingsQueryConformance(() => ({ adapter, store }));
});

describe('StoreIndex: where a round was played', () => {
  it('answers a round whose place is final without reading the store, and reads it for any other round', async () => {
    const { store } = await simulatedStore({ tables: 2, roundsPerTable: 3 });
    try {
      let reads = 0;
      const counted = Object.create(store) as typeof store;
      counted.headPosition = () => store.headPosition(); // a private field's method, called on the store itself
      counted.readAll = (options) => {
        reads++;
        return store.readAll(options);
      };
      const index = new StoreIndex(counted);
      // a round of the store and its RoundStarted (a template for a round the store learns of later)
      let started: { stream: string; data: Record<string, unknown> } | undefined;
      let bet: { stream: string; type: string; data: Record<string, unknown> } | undefined;
      for await (const e of store.readAll()) {
        if (e.type === 'RoundStarted')
          started ??= { stream: e.stream, data: e.data as Record<string, unknown> };
        else if (started && e.stream === started.stream && e.type === 'BetPlaced')
          bet ??= { stream: e.stream, type: e.type, data: e.data as Record<string, unknown> };
      }
      assert.ok(started && bet);
      const header = started.data['header'] as { roundId: string; concessionaire: string; eventId: string };
      const place = await index.round(header.roundId, null);
      assert.equal(place?.dealerId, started.data['dealerId']);
      assert.equal(reads, 1);
      assert.deepEqual(await index.round(header.roundId, null), place);
      assert.equal(await index.round(header.roundId, `not ${header.concessionaire}`), undefined);
      assert.equal(reads, 1, 'a final place: no read of the store');
      assert.equal(await index.round('no-such-round', null), undefined);
      assert.equal(reads, 2, 'a round not known: the store is read first');
      // a round first seen by a bet (no dealer yet), then its RoundStarted: the place read again has the dealer
      const newRound = `${header.roundId}-late`;
      const as = (x: { data: Record<string, unknown> }, id: string) => ({
        ...x.data,
        header: { ...(x.data['header'] as object), roundId: newRound, eventId: id },
      });
      await store.append(bet.stream, [{ eventId: 'late-bet', type: bet.type, data: as(bet, 'late-bet') }]);
      const early = await index.round(newRound, null);
      assert.equal(early?.dealerId, null);
      await store.append(started.stream, [
        { eventId: 'late-start', type: 'RoundStarted', data: as(started, 'late-start') },
      ]);
      const later = await index.round(newRound, null);
      assert.equal(later?.dealerId, started.data['dealerId'], 'a place without its dealer is not final');
    } finally {
      await store.close();
    }
  });
});
