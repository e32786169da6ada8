/** The same conformance suite over ClickHouse (chDB, in this test's own process), projected by services/analytics. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe } from 'node:test';
import { runProcessor } from '@table-audit/eventstore';
import type { SqliteEventStore } from '@table-audit/eventstore/sqlite';
import { AnalyticsProjector, migrate, openAnalytics, type AnalyticsClient } from '@table-audit/analytics';
import { ClickHouseFindings } from '../src/clickhouse-findings.ts';
import { simulatedStore } from './fixture.ts';
import { findingsQueryConformance } from './findings-conformance.ts';

describe('FindingsQuery conformance: ClickHouse (chDB)', () => {
  let store: SqliteEventStore;
  let analytics: AnalyticsClient;
  let adapter: ClickHouseFindings;
  before(async () => {
    ({ store } = await simulatedStore({ tables: 12, roundsPerTable: 15 }));
    analytics = await openAnalytics({ path: join(mkdtempSync(join(tmpdir(), 'ta-api-chdb-')), 'analytics') });
    await migrate(analytics.client);
    await runProcessor(store, new AnalyticsProjector(analytics.client), { batchSize: 2_000 });
    adapter = new ClickHouseFindings(analytics.client, analytics.description);
  });
  after(async () => {
    await analytics.close();
    await store.close();
  });
  findingsQueryConformance(() => ({ adapter, store }));
});
