import { after, before, describe } from 'node:test';
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
