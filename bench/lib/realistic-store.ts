/**
 * A store at realistic table length, built as bench/api.bench.ts builds its month (its `buildMonth`): DAYS days of
 * TABLES F3CP tables × ROUNDS rounds a table a day (each day's tables a session of their own, `d01-…`, simulated
 * from 10:00 Macau time that day, 30 % of rounds with a labelled fault, 5 % with a handled irregularity), and one
 * long table of LONG rounds; ingested as the pipeline does. Not replayed unless `replay` is asked (the what-if and
 * the readings kept ready read the table streams only). Writes `.bench-api-store` beside it with its sizes, as
 * api.bench.ts does, so that the what-if bench's BENCH_STORE finds how many days it holds.
 *
 *   node --import ./apps/cli/bin/register-ts.mjs bench/lib/realistic-store.ts DIR [DAYS] [TABLES] [ROUNDS] [LONG]
 *   (DIR must not exist, or be empty; defaults 3 days × 50 tables × 800 rounds, a long table of 800 rounds)
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SqliteEventStore } from '@table-audit/eventstore/sqlite';
import { IngestPipeline } from '@table-audit/ingest';
import { ReplayService } from '@table-audit/replay';
import { simulateSession } from '@table-audit/simulator';
import { submitEvents } from './submit.ts';

export interface RealisticSizes {
  readonly DAYS: number;
  readonly TABLES: number;
  readonly ROUNDS: number;
  readonly LONG: number;
}

const FIRST_DAY = Date.parse('2025-12-01T02:00:00Z'); // 10:00 in Macau

/** Builds the store in `dir` (created if absent; refused if it holds anything). Returns the events submitted. */
export async function buildRealisticStore(
  dir: string,
  sizes: RealisticSizes,
  { replay = false, onDay }: { replay?: boolean; onDay?: (day: number, events: number) => void } = {},
): Promise<number> {
  if (existsSync(dir) && readdirSync(dir).length)
    throw new Error(`${dir} is not empty: the realistic store is built in a new directory`);
  mkdirSync(dir, { recursive: true });
  const store = new SqliteEventStore(join(dir, 'events.sqlite'));
  const pipeline = new IngestPipeline(store, () => 0);
  let index = 0;
  for (let day = 0; day < sizes.DAYS; day++) {
    const session = simulateSession({
      seed: 2026 + day,
      tables: sizes.TABLES,
      roundsPerTable: sizes.ROUNDS,
      start: FIRST_DAY + day * 86_400_000,
      tableIdPrefix: `d${String(day + 1).padStart(2, '0')}-`,
      faultRate: 0.3,
      handledRate: 0.05,
    });
    index = await submitEvents(pipeline, session.events, { chunk: 2_000, firstIndex: index });
    onDay?.(day + 1, index);
  }
  if (sizes.LONG > 0) {
    const session = simulateSession({
      seed: 1,
      tables: 1,
      roundsPerTable: sizes.LONG,
      start: FIRST_DAY,
      tableIdPrefix: 'long-',
      faultRate: 0.3,
      handledRate: 0.05,
    });
    index = await submitEvents(pipeline, session.events, { chunk: 2_000, firstIndex: index });
  }
  if (replay) {
    const r = new ReplayService({ store });
    await r.catchUp();
    await r.finish();
  }
  await store.close();
  // in api.bench.ts's order, so that it would take the store as its own of these sizes
  const { TABLES, DAYS, ROUNDS, LONG } = sizes;
  writeFileSync(join(dir, '.bench-api-store'), JSON.stringify({ TABLES, DAYS, ROUNDS, LONG }));
  return index;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [dir, days = '3', tables = '50', rounds = '800', long = '800'] = process.argv.slice(2);
  if (!dir) throw new Error('usage: realistic-store.ts DIR [DAYS] [TABLES] [ROUNDS] [LONG]');
  const t0 = performance.now();
  const events = await buildRealisticStore(
    dir,
    { DAYS: Number(days), TABLES: Number(tables), ROUNDS: Number(rounds), LONG: Number(long) },
    {
      replay: process.env.BENCH_REPLAY === '1',
      onDay: (d, n) =>
        console.log(
          `day ${d}: ${n.toLocaleString('en-US')} events, ${((performance.now() - t0) / 1000).toFixed(0)} s`,
        ),
    },
  );
  console.log(
    `built ${dir}: ${events.toLocaleString('en-US')} events in ${((performance.now() - t0) / 1000).toFixed(0)} s`,
  );
}
