// Migration 4 gives rounds the sums of their bets' over- and under-payments: rounds projected before it are filled
// from their bets; rounds projected after it carry them from the projector. Both agree with the bets.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { runProcessor } from '@table-audit/eventstore';
import { AnalyticsProjector, MIGRATIONS, migrate, openAnalytics } from '../src/index.ts';
import { simulatedStore } from './fixture.ts';

delete process.env.CLICKHOUSE_URL;
const dir = mkdtempSync(join(tmpdir(), 'ta-analytics-m4-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('migration 4: over- and under-payment per round', () => {
  it('the projector sums them, and the migration fills the rounds projected before it from their bets', async () => {
    const { store } = await simulatedStore(dir);
    const analytics = await openAnalytics({ path: join(dir, 'analytics') });
    try {
      await migrate(analytics.client);
      await runProcessor(store, new AnalyticsProjector(analytics.client), { batchSize: 5_000 });
      assert.ok(MIGRATIONS.some((m) => m.version === 4));
      const sums = async () =>
        (
          await analytics.client.query({
            query: `SELECT r.round_id AS round_id, r.overpaid_avos AS over, r.underpaid_avos AS under,
              b.over AS bets_over, b.under AS bets_under
            FROM rounds AS r FINAL
            INNER JOIN (
              SELECT round_id, ifNull(sumIf(difference_avos, difference_avos > 0), 0) AS over,
                -ifNull(sumIf(difference_avos, difference_avos < 0), 0) AS under
              FROM bets FINAL GROUP BY round_id
            ) AS b ON b.round_id = r.round_id`,
            format: 'JSONEachRow',
            clickhouse_settings: { output_format_json_quote_64bit_integers: 0 },
          })
        ).json<{ round_id: string; over: number; under: number; bets_over: number; bets_under: number }>();
      const roundCount = async () =>
        Number(
          (
            await (
              await analytics.client.query({
                query: 'SELECT count() AS n FROM rounds FINAL',
                format: 'JSONEachRow',
              })
            ).json<{ n: string }>()
          )[0]!.n,
        );
      const before = await roundCount();
      // the projector's sums
      const projected = await sums();
      for (const r of projected) assert.deepEqual([r.over, r.under], [r.bets_over, r.bets_under], r.round_id);
      // rounds as a build before migration 4 left them: no sums, migration 4 not recorded; then migrate
      await analytics.client.command({
        query:
          'ALTER TABLE rounds UPDATE overpaid_avos = 0, underpaid_avos = 0 WHERE 1 SETTINGS mutations_sync = 2',
      });
      await analytics.client.command({
        query: 'ALTER TABLE schema_migrations DELETE WHERE version = 4 SETTINGS mutations_sync = 2',
      });
      assert.ok((await sums()).every((r) => r.over === 0 && r.under === 0));
      const report = await migrate(analytics.client);
      assert.deepEqual(report.applied, [4]);
      const rows = await sums();
      assert.ok(rows.length > 0);
      const discrepant = rows.filter((r) => r.bets_over !== 0 || r.bets_under !== 0);
      assert.ok(discrepant.length > 0, 'the session has rounds paid wrongly');
      for (const r of rows) assert.deepEqual([r.over, r.under], [r.bets_over, r.bets_under], r.round_id);
      assert.equal(await roundCount(), before, 'no round duplicated by the backfill');
    } finally {
      await analytics.close();
      await store.close();
    }
  });
});
