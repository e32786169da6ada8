/**
 * Not a benchmark (run-bench picks only *.bench.ts): what writing each round's start state into its record
 * (RoundDerived.startState, ReplayService's default) costs the bulk replay. One SQLite store of simulated sessions
 * (BENCH_GAMES, default every game that resumes a fold: `GAME:tables:rounds`, comma-separated) is ingested once;
 * then copies of it are replayed from scratch by ReplayService (catch-up and finish, as `table-audit replay` does),
 * A without start states (startStates: false) and B with them, alternately A B A B … BENCH_PAIRS times after a
 * warm-up of each, so that the load of a shared machine falls on both alike. Prints µs of CPU per event replayed
 * (this process's user + system; the store's writes are in this thread), the wall time, B/A of each pair and
 * their median, and the store's growth: the file's bytes after the replay, per round record, A beside B, and the
 * start states' own length. Checks that A and B stored the same findings and the same records but for the state
 * (and the reported finding ids written with it).
 *   node --import ./apps/cli/bin/register-ts.mjs bench/start-states-ab.ts
 */
import { copyFileSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { SqliteEventStore } from '@table-audit/eventstore/sqlite';
import { IngestPipeline } from '@table-audit/ingest';
import { ReplayService } from '@table-audit/replay';
import { DEFAULT_REPLAY_OPTIONS, gameModuleFor, type RoundRecord, type TableEvent } from '@table-audit/rules';
import { simulateSession } from '@table-audit/simulator';
import { submitEvents } from './lib/submit.ts';

const PAIRS = Number(process.env.BENCH_PAIRS ?? 4);
const resuming = ['F3CP', 'THIRTEEN_CARDS', 'MAHJONG', 'CRAPS'].filter(
  (g) => gameModuleFor(g)?.resumeTable !== undefined,
);
const DEFAULT_SIZES: Record<string, string> = {
  F3CP: 'F3CP:40:50',
  THIRTEEN_CARDS: 'THIRTEEN_CARDS:20:60',
  MAHJONG: 'MAHJONG:20:40',
  CRAPS: 'CRAPS:4:150',
};
const games = (process.env.BENCH_GAMES ?? resuming.map((g) => DEFAULT_SIZES[g]).join(','))
  .split(',')
  .filter((x) => x !== '')
  .map((x) => {
    const [game, tables, rounds] = x.split(':');
    return { game: game!, tables: Number(tables), roundsPerTable: Number(rounds) };
  });
if (games.length === 0) throw new Error('no game resumes a fold yet (BENCH_GAMES names none)');

const dir = mkdtempSync(join(tmpdir(), 'ta-start-states-ab-'));
try {
  const base = join(dir, 'ingested.sqlite');
  const events: TableEvent[] = games.flatMap(
    (g, i) => simulateSession({ ...g, seed: 11 + i, faultRate: 0.3, handledRate: 0.05 }).events,
  );
  {
    const store = new SqliteEventStore(base);
    const pipeline = new IngestPipeline(store, () => 0);
    await submitEvents(pipeline, events, { chunk: 5_000 });
    await store.close();
  }
  const ingestedBytes = statSync(base).size;
  console.log(
    `session: ${games.map((g) => `${g.game} ${g.tables}×${g.roundsPerTable}`).join(', ')}: ${events.length.toLocaleString('en-US')} events, store ${(ingestedBytes / 1e6).toFixed(1)} MB; load average ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')} (2 cores, shared: figures under load)`,
  );

  let run = 0;
  const replay = async (startStates: boolean) => {
    const path = join(dir, `run-${run++}.sqlite`);
    copyFileSync(base, path);
    const store = new SqliteEventStore(path);
    const service = new ReplayService({ store, replay: { ...DEFAULT_REPLAY_OPTIONS, startStates } });
    const t = performance.now();
    const c0 = process.cpuUsage();
    await service.catchUp();
    await service.finish();
    const c = process.cpuUsage(c0);
    const wall = performance.now() - t;
    // what was stored: the findings, the records without their state, the states' length
    const findings = createHash('sha256');
    const records = createHash('sha256');
    let stateChars = 0;
    let states = 0;
    let recordCount = 0;
    for await (const e of store.readAll()) {
      if (e.type === 'FindingRaised') findings.update(e.eventId);
      else if (e.type === 'RoundDerived') {
        // the derivation: without the start state and the reported findings written with it
        const { startState, reportedFindingIds: _, ...rest } = e.data as RoundRecord;
        records.update(JSON.stringify(rest));
        recordCount++;
        if (typeof startState === 'string') {
          states++;
          stateChars += Buffer.byteLength(startState);
        }
      }
    }
    await store.close();
    const bytes = statSync(path).size;
    rmSync(path);
    return {
      cpuUsPerEvent: (c.user + c.system) / service.stats.tableEvents,
      wall,
      bytesPerRecord: (bytes - ingestedBytes) / recordCount,
      records: recordCount,
      states,
      stateBytes: states ? stateChars / states : 0,
      findings: findings.digest('hex'),
      recordsDigest: records.digest('hex'),
    };
  };

  await replay(false); // warm-up
  await replay(true);
  const ratios: number[] = [];
  const a: Awaited<ReturnType<typeof replay>>[] = [];
  const b: Awaited<ReturnType<typeof replay>>[] = [];
  for (let i = 0; i < PAIRS; i++) {
    const x = await replay(false);
    const y = await replay(true);
    if (x.findings !== y.findings) throw new Error('A and B stored different findings');
    if (x.recordsDigest !== y.recordsDigest)
      throw new Error('A and B stored different records (start states aside)');
    a.push(x);
    b.push(y);
    ratios.push(y.cpuUsPerEvent / x.cpuUsPerEvent);
    console.log(
      `pair ${i + 1}: A (no start states) ${x.cpuUsPerEvent.toFixed(2)} µs CPU/event, ${(x.wall / 1000).toFixed(2)} s   ` +
        `B (start states) ${y.cpuUsPerEvent.toFixed(2)} µs CPU/event, ${(y.wall / 1000).toFixed(2)} s   B/A ${(y.cpuUsPerEvent / x.cpuUsPerEvent).toFixed(3)}`,
    );
  }
  const median = (xs: number[]) => [...xs].sort((p, q) => p - q)[Math.floor(xs.length / 2)]!;
  console.log(`median B/A (CPU per event): ${median(ratios).toFixed(3)}`);
  const [x, y] = [a[0]!, b[0]!];
  console.log(
    `store growth by the replay, per round record (${x.records.toLocaleString('en-US')} records; findings, checkpoint and dictionary included): ` +
      `A ${x.bytesPerRecord.toFixed(0)} bytes, B ${y.bytesPerRecord.toFixed(0)} bytes; ` +
      `${y.states.toLocaleString('en-US')} records with a start state, ${y.stateBytes.toFixed(0)} bytes of JSON each on average`,
  );
  console.log(
    `load average at the end ${loadavg()
      .map((v) => v.toFixed(1))
      .join(' ')}`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
