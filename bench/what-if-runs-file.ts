/**
 * What keeping what-if runs in a file costs (figures printed, not asserted; services/api/src/what-if-runs-file.ts).
 * A real what-if over a simulated store (J11 and J2 over its whole period, the API's 200 changed rounds listed)
 * gives a report; then, interleaved (A, B, A, B):
 *   - finish: what a kept run's end costs with the file — its report made JSON (the runner does that in any case:
 *     the report's size is bounded) and its row written — beside the baseline, the JSON alone;
 *   - start: opening the runs file and reading back 32 finished runs with that report, beside the baseline, the
 *     same over a runs file that holds none.
 * Each as CPU µs per operation (process.cpuUsage, user + sys) and wall ms.
 *
 *   node --import ./apps/cli/bin/register-ts.mjs bench/what-if-runs-file.ts
 *   BENCH_TABLES=20 BENCH_ROUNDS=150 BENCH_PAIRS=3 (the defaults)
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore } from '@table-audit/eventstore/sqlite';
import { IngestPipeline } from '@table-audit/ingest';
import { macauDate } from '@table-audit/rules';
import { simulateSession } from '@table-audit/simulator';
import { WhatIfRuns } from '../services/api/src/what-if-runs.ts';
import { WhatIfRunsFile, type RunRow } from '../services/api/src/what-if-runs-file.ts';
import { WHAT_IF_MAX_CHANGED } from '../services/api/src/routes/what-if.ts';
import { submitEvents } from './lib/submit.ts';

const TABLES = Number(process.env.BENCH_TABLES ?? 20);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 150);
const PAIRS = Number(process.env.BENCH_PAIRS ?? 3);
const OPS = 32;

const session = simulateSession({ seed: 26, tables: TABLES, roundsPerTable: ROUNDS, faultRate: 0.05 });
const dir = mkdtempSync(join(tmpdir(), 'ta-bench-what-if-runs-file-'));
const store = new SqliteEventStore(join(dir, 'events.sqlite'));
await submitEvents(new IngestPipeline(store), session.events);
const events = Number(await store.headPosition());
const scope = {
  from: macauDate(session.events[0]!.data.header.eventTime),
  to: macauDate(session.events.at(-1)!.data.header.eventTime),
};

const loader = new URL('../apps/cli/bin/register-ts.mjs', import.meta.url).href;
const real = new WhatIfRuns(store.path, store, { loader, maxChanged: WHAT_IF_MAX_CHANGED });
const run = real.submit({ alternatives: ['J11', 'J2'], scope, owner: null });
await run.finished;
await real.close();
if (run.status !== 'done' || run.report === null)
  throw new Error(`the what-if run is ${run.status}: ${run.error}`);
const report = run.report;
const reportBytes = Buffer.byteLength(JSON.stringify(report));

const row = (id: string, json: string): RunRow => ({
  id,
  owner: null,
  alternatives: JSON.stringify(['J11', 'J2']),
  scope: JSON.stringify(scope),
  status: 'done',
  queued_at: 0,
  started_at: 1,
  finished_at: 2,
  events_read: events,
  events_total: events,
  error: null,
  interrupted_at: null,
  interrupted: null,
  report: json,
});

function measure(ops: number, f: (i: number) => void) {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < ops; i++) f(i);
  const wall = performance.now() - t0;
  const c = process.cpuUsage(c0);
  return {
    cpuMicrosecondsPerOp: Math.round((c.user + c.system) / ops),
    wallMsPerOp: Number((wall / ops).toFixed(2)),
  };
}

let n = 0;
async function finish(withFile: boolean) {
  const file = withFile ? await WhatIfRunsFile.open(join(dir, `finish-${n++}.sqlite`), store) : null;
  const m = measure(OPS, (i) => {
    const json = JSON.stringify(report);
    file?.put(row(`run-${i}`, json));
  });
  file?.close();
  return { mode: withFile ? 'finish: JSON + row written' : 'finish baseline: JSON only', ...m };
}

async function start(runs: number) {
  const path = join(dir, `start-${n++}.sqlite`);
  const file = await WhatIfRunsFile.open(path, store);
  const json = JSON.stringify(report);
  for (let i = 0; i < runs; i++) file.put(row(`run-${i}`, json));
  file.close();
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const runner = new WhatIfRuns(null, store, { file: await WhatIfRunsFile.open(path, store) });
  const wall = performance.now() - t0;
  const c = process.cpuUsage(c0);
  const read = runner.get(`run-${runs - 1}`, null);
  if (runs > 0 && read?.report?.roundsChanged !== report.roundsChanged)
    throw new Error('not read back as kept');
  await runner.close();
  return {
    mode: runs ? `start: ${runs} finished runs read back` : 'start baseline: an empty runs file',
    cpuMs: Number(((c.user + c.system) / 1000).toFixed(1)),
    wallMs: Number(wall.toFixed(1)),
    fileBytes: statSync(path).size,
  };
}

const results = [];
for (let i = 0; i < PAIRS; i++) {
  results.push(await finish(true), await finish(false));
  results.push(await start(32), await start(0));
}
await store.close();
rmSync(dir, { recursive: true, force: true });

console.log(
  JSON.stringify(
    {
      note: 'figures taken on a shared 2-core machine under load from other jobs; each baseline measured in the same run, interleaved',
      store: { tables: TABLES, roundsPerTable: ROUNDS, events, period: `${scope.from}..${scope.to}` },
      report: {
        readings: 'J11=ALT,J2=ALT',
        roundsCompared: report.roundsCompared,
        roundsChanged: report.roundsChanged,
        changedListed: report.changed.length,
        bytes: reportBytes,
      },
      results,
    },
    null,
    2,
  ),
);
