/**
 * The store issue's table: every figure beside the raw limit measured in the same run, the ratio, the target and
 * the peak RSS of the process that measured it (each measurement runs in a child process of its own,
 * bench/lib/part.ts, through the public entry points of services/ingest, services/replay and the event store).
 * Then memory as the input grows, along two axes: peak RSS of file ingest and of bulk replay at 1×, 10× and 100× of a
 * base session, first with 10 and 100 times the tables (all open at once: a fold per live table is kept), then with
 * the same tables and 10 and 100 times the rounds (longer sessions: nothing kept may grow with them). Prints the
 * tables, then one JSON line with every figure.
 *
 *   pnpm bench            (or pnpm bench table)   the table
 *   pnpm bench day        (or --day)              a simulated day's worth of 500 tables: simulate → ingest → replay
 *
 *   BENCH_BASE_TABLES (4) × BENCH_ROUNDS (50): the 1× session; 10× and 100× have 10 and 100 times the tables.
 *     The ingest and replay rows of the table are the 10× runs. BENCH_ROUNDS_AXIS=0 leaves out the rounds axis
 *     (BENCH_BASE_TABLES × 10 and 100 times BENCH_ROUNDS).
 *   BENCH_KAFKA_TABLES (20) × BENCH_KAFKA_ROUNDS (40) · BENCH_PURE_TABLES (200) × BENCH_ROUNDS, BENCH_PURE_RUNS (3)
 *   BENCH_LIVE_RATE (20000) events/s for BENCH_LIVE_SECONDS (15)
 *   BENCH_DAY_TABLES (500) × BENCH_DAY_ROUNDS (50)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { runPart, type PartResult } from './lib/measure.ts';

const env = (name: string, fallback: number): number => {
  const v = Number(process.env[name] ?? fallback);
  if (!Number.isSafeInteger(v) || v < 1)
    throw new Error(`${name} must be a positive integer, not ${process.env[name]}`);
  return v;
};

const fmt = (n: number): string => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : 'n/a');
const ratio = (a: number, b: number): string => (b > 0 && Number.isFinite(a) ? (a / b).toFixed(2) : '—');
const n = (r: PartResult, k: string): number => Number(r[k]);
const log = (msg: string) => console.error(`[bench table] ${new Date().toISOString()} ${msg}`);

function printTable(header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  console.log(line(header));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const r of rows) console.log(line(r));
}

/** The machine's state, printed with the figures: they are only comparable to a baseline of the same run. */
const loadAtStart = loadavg()[0]!;
const machine = () =>
  `${availableParallelism()} cores; load average (1 min) ${loadAtStart.toFixed(1)} at the start, ${loadavg()[0]!.toFixed(1)} at the end`;

const dir = mkdtempSync(join(tmpdir(), 'ta-bench-table-'));
const generate = (name: string, tables: number, rounds: number, seed: number) => {
  log(`simulating ${tables} tables × ${rounds} rounds`);
  return {
    file: join(dir, `${name}.avro`),
    ...runPart('generate', { seed, tables, rounds, out: join(dir, `${name}.avro`), dir }),
  };
};

async function table(): Promise<void> {
  const base = env('BENCH_BASE_TABLES', 4);
  const rounds = env('BENCH_ROUNDS', 50);
  const scales = [1, 10, 100];
  const series = scales.map((scale) => {
    const input = generate(`x${scale}`, base * scale, rounds, 7);
    const store = join(dir, `x${scale}.sqlite`);
    log(`ingesting ${n(input, 'events')} events (${scale}×)`);
    const ingest = runPart('ingest-file', { file: input.file, store, dir });
    log(`replaying them`);
    const replay = runPart('replay', { store, dir });
    if (scale !== 10) {
      rmSync(input.file);
      rmSync(store);
    }
    return { scale, input, ingest, replay };
  });
  // the other axis: the same tables, 10 and 100 times the rounds (the 1× run is the one above)
  const roundsAxis = process.env.BENCH_ROUNDS_AXIS === '0' ? [] : [10, 100];
  const longer = roundsAxis.map((scale) => {
    const input = generate(`r${scale}`, base, rounds * scale, 7);
    const store = join(dir, `r${scale}.sqlite`);
    log(`ingesting ${n(input, 'events')} events (${scale}× the rounds)`);
    const ingest = runPart('ingest-file', { file: input.file, store, dir });
    log(`replaying them`);
    const replay = runPart('replay', { store, dir });
    rmSync(input.file);
    rmSync(store);
    return { scale, input, ingest, replay };
  });
  const ten = series[1]!;
  const events = n(ten.input, 'events');
  log(`raw SQLite, ${events} rows`);
  const raw = runPart('raw-sqlite', { rows: events, dir });
  const decode = runPart('decode', { file: ten.input.file, dir });
  log('Kafka (mock cluster) → SQLite');
  const kafka = runPart('ingest-kafka', {
    seed: 8,
    tables: env('BENCH_KAFKA_TABLES', 20),
    rounds: env('BENCH_KAFKA_ROUNDS', 40),
    store: join(dir, 'kafka.sqlite'),
    dir,
  });
  log('pure in-memory replay');
  const pure = runPart('pure', {
    seed: 9,
    tables: env('BENCH_PURE_TABLES', 200),
    rounds,
    runs: env('BENCH_PURE_RUNS', 3),
    dir,
  });
  const liveRate = env('BENCH_LIVE_RATE', 20_000);
  log(`live lag at ${liveRate} events/s with a busy process beside`);
  const live = runPart('live', {
    seed: 10,
    rate: liveRate,
    seconds: env('BENCH_LIVE_SECONDS', 15),
    store: join(dir, 'live.sqlite'),
    dir,
  });

  const insertRate = n(raw, 'insertRowsPerSecond');
  const readRate = n(raw, 'readRowsPerSecond');
  const ingestRate = n(ten.ingest, 'eventsPerSecond');
  const kafkaRate = n(kafka, 'eventsPerSecond');
  const replayRate = n(ten.replay, 'eventsPerSecond');
  const pureRate = n(pure, 'roundsPerSecond');
  const settleRate = n(pure, 'settleOnlyRoundsPerSecond');
  const bytesPerEvent = n(ten.ingest, 'storeBytesPerEvent');
  const recordBytes = n(ten.input, 'avroRecordBytes');
  const lag = live.lagMs as { p50: number; p99: number; count: number };
  const offered = Number(
    (live.producer as { offeredEventsPerSecond?: number } | null)?.offeredEventsPerSecond,
  );
  const yes = (ok: boolean) => (ok ? 'yes' : 'NO');

  console.log(
    `\ntable-audit, the store issue's figures — ${new Date().toISOString()} (UTC); every raw limit measured in this run; ${machine()}`,
  );
  printTable(
    ['figure', 'measured', 'raw limit (same run)', 'ratio', 'target', 'met?', 'peak RSS'],
    [
      [
        `ingest, Avro file → SQLite (${fmt(events)} events)`,
        `${fmt(ingestRate)} events/s`,
        `raw insert ${fmt(insertRate)} rows/s (${raw.rowBytes} B, unique key, 1 txn); decode alone ${fmt(n(decode, 'recordsPerSecond'))} records/s`,
        ratio(ingestRate, insertRate),
        '≥ 0.40 of raw insert',
        yes(ingestRate >= 0.4 * insertRate),
        `${ten.ingest.peakRssMiB} MiB`,
      ],
      [
        `ingest, Kafka mock (3 partitions) → SQLite (${fmt(n(kafka, 'events'))} events)`,
        `${fmt(kafkaRate)} events/s`,
        `raw insert ${fmt(insertRate)} rows/s`,
        ratio(kafkaRate, insertRate),
        '≥ 50,000 events/s',
        yes(kafkaRate >= 50_000),
        `${kafka.peakRssMiB} MiB`,
      ],
      [
        `bulk replay from the store (${fmt(n(ten.replay, 'events'))} events, ${fmt(n(ten.replay, 'rounds'))} rounds)`,
        `${fmt(replayRate)} events/s (${fmt(n(ten.replay, 'roundsPerSecond'))} rounds/s)`,
        `raw read ${fmt(readRate)} rows/s`,
        ratio(replayRate, readRate),
        '≥ 0.30 of raw read',
        yes(replayRate >= 0.3 * readRate),
        `${ten.replay.peakRssMiB} MiB`,
      ],
      [
        `pure in-memory replay, one core (${fmt(n(pure, 'rounds'))} rounds)`,
        `${fmt(pureRate)} rounds/s`,
        `settlement alone ${fmt(settleRate)} rounds/s`,
        ratio(pureRate, settleRate),
        '≥ 40,000 rounds/s',
        yes(pureRate >= 40_000),
        `${pure.peakRssMiB} MiB`,
      ],
      [
        'store size, chain included',
        `${fmt(bytesPerEvent)} bytes/event`,
        `Avro record ${fmt(recordBytes)} bytes; raw row ${fmt(n(raw, 'bytesPerRow'))} bytes`,
        ratio(bytesPerEvent, recordBytes),
        '≤ 200 bytes/event',
        yes(bytesPerEvent <= 200),
        '—',
      ],
      [
        `live lag p99 (p50 ${fmt(lag.p50)} ms, ${fmt(lag.count)} findings)`,
        `${fmt(lag.p99)} ms at ${fmt(offered)} events/s offered`,
        '—',
        '—',
        `< 1 s at ${fmt(liveRate)} events/s, under load`,
        yes(lag.count > 0 && lag.p99 < 1_000 && offered >= 0.95 * liveRate),
        `${live.peakRssMiB} MiB`,
      ],
    ],
  );

  console.log('\nmemory as the input grows (peak RSS of the process that did it)\n');
  const axes = [
    { axis: `tables (${base} × 1, 10, 100; ${rounds} rounds each)`, runs: series },
    ...(longer.length
      ? [{ axis: `rounds (${base} tables; ${rounds} × 1, 10, 100 rounds)`, runs: [series[0]!, ...longer] }]
      : []),
  ];
  printTable(
    ['stage', 'grows with', '1×', '10×', '100×', '100× / 1×'],
    axes.flatMap(({ axis, runs }) =>
      (['ingest', 'replay'] as const).map((k) => {
        const peak = (i: number) => Number(runs[i]![k].peakRssMiB);
        return [
          k === 'ingest' ? 'ingest, Avro file → SQLite' : 'bulk replay from the store',
          axis,
          ...runs.map((r, i) => `${peak(i)} MiB (${fmt(n(r.input, 'events'))} events)`),
          ratio(peak(runs.length - 1), peak(0)),
        ];
      }),
    ),
  );
  console.log(
    JSON.stringify({
      bench: 'table',
      at: new Date().toISOString(),
      machine: machine(),
      raw,
      decode,
      series,
      longer,
      kafka,
      pure,
      live,
    }),
  );
}

async function day(): Promise<void> {
  const tables = env('BENCH_DAY_TABLES', 500);
  const rounds = env('BENCH_DAY_ROUNDS', 50);
  const input = generate('day', tables, rounds, 2026);
  const store = join(dir, 'day.sqlite');
  log(`ingesting ${n(input, 'events')} events`);
  const ingest = runPart('ingest-file', { file: input.file, store, dir });
  log('replaying them');
  const replay = runPart('replay', { store, dir });
  const hours = n(input, 'simulatedHoursPerTable');
  const toDay = 24 / hours;
  const pipelineSeconds = n(ingest, 'seconds') + n(replay, 'seconds');
  console.log(`\na simulated stretch of ${tables} tables — ${new Date().toISOString()} (UTC); ${machine()}`);
  printTable(
    ['', 'simulated', `× ${toDay.toFixed(1)} = 24 h (extrapolated)`],
    [
      ['simulated time per table (median, event times)', `${hours} h`, '24 h'],
      ['rounds per table-hour (median)', String(n(input, 'roundsPerTableHour')), '—'],
      ['rounds', fmt(n(input, 'rounds')), fmt(n(input, 'rounds') * toDay)],
      ['events', fmt(n(input, 'events')), fmt(n(input, 'events') * toDay)],
      ['faults injected', fmt(n(input, 'faultsInjected')), '—'],
      ['findings', fmt(n(replay, 'findings')), fmt(n(replay, 'findings') * toDay)],
      [
        'events file (snappy)',
        `${fmt(n(input, 'fileBytes') / 2 ** 20)} MiB`,
        `${fmt((n(input, 'fileBytes') * toDay) / 2 ** 20)} MiB`,
      ],
      [
        'store (SQLite)',
        `${fmt(n(ingest, 'storeBytes') / 2 ** 20)} MiB`,
        `${fmt((n(ingest, 'storeBytes') * toDay) / 2 ** 20)} MiB`,
      ],
      ['simulate (s)', String(n(input, 'simulateSeconds')), fmt(n(input, 'simulateSeconds') * toDay)],
      ['ingest (s)', String(ingest.seconds), fmt(n(ingest, 'seconds') * toDay)],
      ['replay (s)', String(replay.seconds), fmt(n(replay, 'seconds') * toDay)],
      ['ingest + replay (s)', pipelineSeconds.toFixed(1), fmt(pipelineSeconds * toDay)],
      ['peak RSS ingest / replay', `${ingest.peakRssMiB} / ${replay.peakRssMiB} MiB`, '—'],
    ],
  );
  console.log(
    JSON.stringify({
      bench: 'day',
      at: new Date().toISOString(),
      machine: machine(),
      tables,
      rounds,
      input,
      ingest,
      replay,
    }),
  );
}

try {
  await (process.argv.includes('--day') ? day() : table());
} finally {
  rmSync(dir, { recursive: true, force: true });
}
