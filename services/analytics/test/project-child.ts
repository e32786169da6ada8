/**
 * The child process of the kill -9 test (libchdb binds one data directory per process, so every use of the chDB
 * directory is its own process). `project STORE DIR` migrates and projects; with KILL_AT_FINDINGS=1 it SIGKILLs
 * itself right after the first batch that inserted findings resolved, before runProcessor saves that batch's
 * checkpoint: the crash the projection must survive. Then (and for `count STORE DIR`) it prints the row counts,
 * with and without FINAL.
 */
import { runProcessor } from '@table-audit/eventstore';
import { SqliteEventStore } from '@table-audit/eventstore/sqlite';
import { AnalyticsProjector, migrate, openAnalytics } from '../src/index.ts';

const [mode, storePath, chdbDir] = process.argv.slice(2) as [string, string, string];
const analytics = await openAnalytics({ path: chdbDir });
await migrate(analytics.client);
if (mode === 'project') {
  const store = new SqliteEventStore(storePath);
  const projector = new AnalyticsProjector(analytics.client);
  const handle = projector.handle.bind(projector);
  projector.handle = async (batch) => {
    await handle(batch);
    if (process.env.KILL_AT_FINDINGS && projector.stats.rows.findings > 0)
      process.kill(process.pid, 'SIGKILL');
  };
  await runProcessor(store, projector, { batchSize: 500 });
  await store.close();
}
{
  const counts: Record<string, number> = {};
  for (const table of [
    'findings',
    'table_health',
    'ingest_rejects',
    'round_starts',
    'tables',
    'rounds',
    'bets',
  ]) {
    const [row] = await (
      await analytics.client.query({
        query: `SELECT (SELECT count() FROM ${table} FINAL) AS final, (SELECT count() FROM ${table}) AS raw`,
        format: 'JSONEachRow',
      })
    ).json<{ final: string; raw: string }>();
    counts[table] = Number(row!.final);
    counts[`${table}.raw`] = Number(row!.raw);
  }
  process.stdout.write(JSON.stringify(counts));
}
await analytics.close();
