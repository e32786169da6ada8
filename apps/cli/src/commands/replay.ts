import { parseArgs } from 'node:util';
import {
  defaultWorkers,
  explainRound,
  explainRoundWhatIf,
  roundReadings,
  roundReadingsText,
  roundWhatIfText,
  runWhatIf,
  whatIfText,
  WhatIfRequestError,
  MAX_DEFAULT_WORKERS,
  prepareReadings,
  ReadingsFileRefused,
  replayInParallel,
  ReplayService,
  shardCheckpoint,
  type ReplayStats,
  type Shard,
} from '@table-audit/replay';
import {
  DEFAULT_REPLAY_OPTIONS,
  F3CP_ALTERNATIVE_READINGS,
  parseWhatIf,
  WhatIfSpecError,
  type Finding,
} from '@table-audit/rules';
import {
  ANCHOR_OPTIONS_USAGE,
  anchorsDir,
  configuredAnchorer,
  describeAnchor,
  signedCheckpoint,
} from './anchors.ts';
import { json, out, UsageError, type Command } from './command.ts';
import { openConfiguredStore } from '../adapters.ts';
import { openStoreReadOnly, progress, progressDone, storePath } from './store.ts';
import { observeReplay, OBSERVE_OPTIONS, OBSERVE_USAGE, observe } from './observe.ts';

const usage = `Usage: table-audit replay ROUND_ID [--json] [--store PATH] [--alternative ID]...
                                                           the disputed hand, step by step
       table-audit replay [--workers N] [--store PATH]             replay the store, append findings and round records
       table-audit replay --live [--store PATH]                    the same, then follow new events
       table-audit replay --live --shard K/N [--metrics-port P]    one shard of N, in this process, following
       table-audit replay --what-if ID=ALT[,ID=ALT…] --from D --to D [--casino C] [--table T] [--json] [--workers N]
                                                           what changes under other readings (writes nothing)
       table-audit replay --keep-readings [--workers N] [--store PATH]
                                                           derive every table under each alternative reading ahead,
                                                           so that a what-if of one reading is answered at once
       table-audit replay ROUND_ID --what-if ID=ALT[,…] [--json]    one round under both readings, side by side
       table-audit replay ROUND_ID --what-if all [--json]      which unclear provisions the round hinges on

With a round id: rebuilds the round from the event store alone and prints each event, each rule applied with its
article, each bet's expected settlement beside the declared one, and each finding. Without: replays every table
from the replay's durable checkpoint and appends findings (findings-<table>) and one RoundDerived record per round
(rounds-<table>); re-running appends nothing new; --live keeps following new events until interrupted.

  --alternative ID  with a round id: read interpretation ID the alternative way instead of the register's chosen
                reading (may be repeated); selectable: ${Object.entries(F3CP_ALTERNATIVE_READINGS)
                  .map(([id, reading]) => `${id}, ${reading}`)
                  .join('; ')}. Only rounds under a rule set that the
                interpretation governs (H1: the 2008 rules) can be read so
  --what-if ID=ALT[,ID=ALT2…]  re-derive under the alternative reading of each interpretation named (ALT: the
                register's first alternative, ALT2: its second where it names two; ID=CHOSEN keeps the register's)
                beside the register's readings, in scratch (the store is opened read-only: no finding, record or
                checkpoint is written), and report what changes: findings that appear or disappear by check,
                casino and table; winnings and the players' net by bet type (MOP; --json: avos); the rounds that
                changed. Which ids are selectable, and why the others are not: table-audit interpretations.
                With a round id, --what-if all derives the round under every selectable alternative of its rule
                set, each alone against the register's readings, and lists those that change it and how
                A what-if of one reading over a period is answered from the readings kept ready (--keep-readings)
                when every table of the store is still at the event it was derived to, and derived otherwise; the
                report says which, and why not
  --keep-readings   derive every table of the store (a SQLite file) from its first event under the register's
                readings and under each selectable alternative reading of its game, alone, and keep what each
                changes, per table and Macau date, in <store>.readings.sqlite (the store is only read). Run again
                after new events: only the tables with new events are derived again
  --derive      with --what-if over a period: derive it now, even when the readings kept ready could answer
  --from D, --to D   with --what-if: the rounds of these Macau dates (YYYY-MM-DD, inclusive; at most 366 days)
  --casino C, --table T   with --what-if: only this casino's or this table's rounds
  --workers N   replay in N worker threads, the tables sharded by a stable hash of their id, each shard under
                its own checkpoint (replay/shard-I-of-N); default the machine's cores, at most ${MAX_DEFAULT_WORKERS}
                (here ${defaultWorkers()}). 1 replays in this thread under the checkpoint "replay". Changing N starts the
                new shards from the beginning of the store: they append nothing already stored. --live runs in
                one thread
  --shard K/N   replay only shard K of N (K from 0 to N-1: the tables whose stable hash is K mod N), in this
                thread, under the shard's own checkpoint (replay/shard-K-of-N): production runs N processes,
                one per shard, each with --shard. Not with --workers, nor --anchors (the anchors are one chain
                with one writer: sign them from a process that is not a shard)

Long-running (--live): JSON log lines on stderr; with --metrics-port, health and Prometheus metrics:
${OBSERVE_USAGE}

${ANCHOR_OPTIONS_USAGE}
                       (with --anchors: the replay resumes from the signed checkpoint when the store's differs, and
                       signs an anchor at the end, and every --anchor-every MS with --live, default 10000)`;

export const replayCommand: Command = {
  name: 'replay',
  summary: 'replay the store and append findings, or explain one round step by step',
  usage,
  async run(args) {
    const { values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      options: {
        store: { type: 'string' },
        json: { type: 'boolean' },
        live: { type: 'boolean' },
        anchors: { type: 'string' },
        'signing-key': { type: 'string' },
        'anchor-every': { type: 'string' },
        workers: { type: 'string' },
        alternative: { type: 'string', multiple: true },
        shard: { type: 'string' },
        ...OBSERVE_OPTIONS,
        'what-if': { type: 'string' },
        from: { type: 'string' },
        to: { type: 'string' },
        casino: { type: 'string' },
        table: { type: 'string' },
        'keep-readings': { type: 'boolean' },
        derive: { type: 'boolean' },
      },
    });
    if (values['keep-readings']) return keepReadings(values, positionals);
    if (values.derive && values['what-if'] === undefined)
      throw new UsageError('--derive goes with --what-if over a period');
    if (values['what-if'] === undefined) {
      for (const o of ['from', 'to', 'casino', 'table'] as const)
        if (values[o] !== undefined) throw new UsageError(`--${o} goes with --what-if`);
    } else return whatIf(values, positionals);
    const alternatives = values.alternative ?? [];
    for (const id of alternatives)
      if (!(id in F3CP_ALTERNATIVE_READINGS))
        throw new UsageError(
          `--alternative: interpretation "${id}" has no alternative reading a replay can select; selectable: ${Object.keys(F3CP_ALTERNATIVE_READINGS).join(', ')}`,
        );
    if (alternatives.length && !positionals.length)
      throw new UsageError(
        '--alternative explains one disputed round under another reading: give the round id (the store replay keeps the chosen readings)',
      );
    let workers = values.live ? 1 : defaultWorkers();
    if (values.workers !== undefined) {
      workers = Number(values.workers);
      if (!Number.isSafeInteger(workers) || workers < 1 || workers > 64)
        throw new UsageError(`--workers takes a whole number from 1 to 64, got "${values.workers}"`);
      if (values.live && workers > 1)
        throw new UsageError(
          `--live replays in one thread: leave out --workers ${workers}; to follow the store in N shards, run N processes with --live --shard K/N`,
        );
    }
    let shard: Shard | undefined;
    if (values.shard !== undefined) {
      shard = parseShard(values.shard);
      if (positionals.length) throw new UsageError('--shard replays the store: leave out the round id');
      if (values.workers !== undefined)
        throw new UsageError('--shard runs one shard in this thread: leave out --workers');
      if (anchorsDir(values.anchors) !== undefined)
        throw new UsageError(
          '--shard does not sign anchors (--anchors or TABLE_AUDIT_ANCHORS): the anchors are one chain with one writer; sign them from a process that is not a shard (ingest --anchors, or a replay without --shard)',
        );
      workers = 1;
    }
    if (!values.live)
      for (const flag of ['metrics-port', 'metrics-host', 'log-level'] as const)
        if (values[flag] !== undefined) throw new UsageError(`--${flag} is for the long-running --live`);
    const observed = values.live ? await observe('replay', values) : null;
    let every = 10_000;
    if (values['anchor-every'] !== undefined) {
      every = Number(values['anchor-every']);
      if (!Number.isSafeInteger(every) || every < 100 || every > 86_400_000)
        throw new UsageError(
          `--anchor-every takes whole milliseconds from 100 to 86400000, got "${values['anchor-every']}"`,
        );
    }
    const opened = await openConfiguredStore({ flag: values.store, mustExist: true });
    const store = opened.store;
    if (opened.path === undefined && workers > 1) {
      // the worker threads open the store by its file: EventStoreDB is replayed in this thread
      if (values.workers !== undefined)
        throw new UsageError(
          `--workers ${workers}: worker threads open a SQLite store file, and the configured store is ${opened.description}; leave out --workers`,
        );
      workers = 1;
    }
    const path = opened.path;
    try {
      if (positionals.length) {
        const x = await explainRound(store, positionals.join(' '), {
          ...DEFAULT_REPLAY_OPTIONS,
          alternatives,
        });
        // the reader is told, before anything else, which interpretations were read the alternative way
        const readings = alternatives.map((id) => ({ id, reading: F3CP_ALTERNATIVE_READINGS[id]! }));
        const said = readings.map((r) => `Alternative reading of ${r.id}: ${r.reading}\n`).join('');
        out(
          values.json
            ? json(readings.length ? { ...x.json, alternatives: readings } : x.json)
            : said + x.text,
        );
        return 0;
      }
      const anchorer = configuredAnchorer(store, opened, {
        anchors: values.anchors,
        signingKey: values['signing-key'],
      });
      const findings: Finding[] = [];
      const metrics = observed ? observeReplay(observed, store, path, shard) : null;
      const service = new ReplayService({
        store,
        onFinding: (f) => {
          findings.push(f);
          metrics?.finding(f);
        },
        ...(shard ? { shard } : {}),
        ...(metrics
          ? {
              onCaughtUp: (position: bigint | null) => {
                metrics.caughtUp(position);
                observed!.logger.info({ position }, 'caught up; following new events');
              },
            }
          : {}),
        ...(anchorer ? { signedCheckpoint: () => signedCheckpoint(anchorer, 'replay') } : {}),
      });
      let stats: ReplayStats = service.stats;
      const t0 = performance.now();
      if (workers > 1) {
        // every shard's checkpoint is signed with the others from now on: moving one is then reported by verify
        anchorer?.cover(
          Array.from({ length: workers }, (_, index) => shardCheckpoint({ index, count: workers })),
        );
        const result = await replayInParallel({
          storePath: path!,
          workers,
          // the workers load the TypeScript sources as this process does
          loader: new URL('../../bin/register-ts.mjs', import.meta.url).href,
          ...(anchorer ? { signedCheckpoint: (name) => signedCheckpoint(anchorer, name) } : {}),
        });
        stats = result.stats;
        findings.push(...result.findings);
      } else if (values.live) {
        const abort = new AbortController();
        process.once('SIGINT', () => abort.abort());
        process.once('SIGTERM', () => abort.abort());
        const log = observed!.logger;
        metrics!.follow(service.stats);
        await observed!.start(() => metrics!.readiness());
        log.info(
          {
            store: path,
            checkpoint: shard ? shardCheckpoint(shard) : 'replay',
            ...(shard ? { shard: `${shard.index}/${shard.count}` } : {}),
            ...(observed!.server ? { metrics: observed!.server.url } : {}),
          },
          'replay following the store',
        );
        const timer = setInterval(
          () =>
            progress(
              `${service.stats.events.toLocaleString('en-US')} events, ${service.stats.rounds.toLocaleString('en-US')} rounds, ${findings.length} findings`,
            ),
          500,
        );
        anchorer?.start(every, (err) =>
          process.stderr.write(`table-audit replay: ${(err as Error).message}\n`),
        );
        try {
          await service.live(abort.signal);
          log.info(
            { events: service.stats.events, rounds: service.stats.rounds, findings: findings.length },
            'replay stopped',
          );
        } catch (err) {
          log.error({ err }, 'replay failed');
          throw err;
        } finally {
          clearInterval(timer);
          metrics!.close();
          await observed!.close();
          await anchorer?.stop();
        }
      } else {
        await service.catchUp();
        await service.finish();
      }
      progressDone();
      const s = stats;
      const seconds = (performance.now() - t0) / 1000;
      out(
        `replayed ${s.events.toLocaleString('en-US')} events, ${s.rounds.toLocaleString('en-US')} rounds in ${seconds.toFixed(1)} s${workers > 1 ? ` (${workers} workers)` : ''}; findings appended ${s.findingsAppended}, already stored ${s.findingsAlreadyStored}; round records appended ${s.roundRecordsAppended}, already stored ${s.roundRecordsAlreadyStored}; rounds not re-derived ${s.notDerived}`,
      );
      const byCheck = new Map<string, number>();
      for (const f of findings) byCheck.set(f.checkId, (byCheck.get(f.checkId) ?? 0) + 1);
      for (const [c, n] of [...byCheck].sort()) out(`  ${c.padEnd(48)} ${n}`);
      // why rounds were not re-derived (voided rounds aside): each reported, the replay went on past them
      for (const r of s.notDerivedRounds)
        process.stderr.write(
          `not re-derived: table ${r.tableId} round ${r.roundId} (${r.code}): ${r.reason}\n`,
        );
      for (const r of s.checksNotRunRounds)
        process.stderr.write(`checks not run: table ${r.tableId} round ${r.roundId}: ${r.reason}\n`);
      if (s.checksNotRun > s.checksNotRunRounds.length)
        process.stderr.write(
          `… and ${s.checksNotRun - s.checksNotRunRounds.length} more rounds with checks not run\n`,
        );
      if (s.notDerived > s.notDerivedRounds.length)
        process.stderr.write(
          `… and ${s.notDerived - s.notDerivedRounds.length} more rounds not re-derived\n`,
        );
      const distrusted = s.checkpointDistrusted;
      if (distrusted)
        out(
          `the checkpoint saved in the store (${distrusted.saved ?? 'none'}) is not the signed one: resumed from ${distrusted.resumedFrom ?? 'the beginning'} instead`,
        );
      if (s.stoppedTables)
        out(
          `${s.stoppedTables} table(s) stopped: their stored record failed verification (STORE.CHAIN_BROKEN); ${s.eventsNotReplayed} of their events not replayed`,
        );
      if (anchorer) out(describeAnchor(await anchorer.anchor(), anchorer.sink.description));
      return s.stoppedTables ? 1 : 0;
    } finally {
      await opened.close(false);
    }
  },
};

/** `K/N`: shard K (from 0) of N (1 to 1024). */
export function parseShard(text: string): Shard {
  const m = /^(\d{1,4})\/(\d{1,4})$/.exec(text.trim());
  const index = m ? Number(m[1]) : NaN;
  const count = m ? Number(m[2]) : NaN;
  if (!m || count < 1 || count > 1024 || index >= count)
    throw new UsageError(
      `--shard takes K/N, shard K (from 0 to N-1) of N shards (N from 1 to 1024), e.g. --shard 0/4; got "${text}"`,
    );
  return { index, count };
}

interface WhatIfValues {
  'what-if'?: string;
  from?: string;
  to?: string;
  casino?: string;
  table?: string;
  store?: string;
  json?: boolean;
  workers?: string;
  live?: boolean;
  alternative?: string[];
  anchors?: string;
  shard?: string;
  derive?: boolean;
  'keep-readings'?: boolean;
}

/** Refuses each of `names` given with `what`, naming the first. */
function refuseOptions(values: WhatIfValues, names: readonly (keyof WhatIfValues)[], what: string): void {
  for (const o of names) if (values[o] !== undefined) throw new UsageError(`--${o} does not go with ${what}`);
}

/** `replay --keep-readings`: every table derived ahead under each alternative reading of its game. Reads the store only. */
async function keepReadings(values: WhatIfValues, positionals: string[]): Promise<number> {
  if (positionals.length)
    throw new UsageError('--keep-readings derives every table of the store: leave out the round id');
  refuseOptions(
    values,
    ['what-if', 'live', 'alternative', 'anchors', 'shard', 'from', 'to', 'casino', 'table', 'derive'],
    '--keep-readings',
  );
  let workers = defaultWorkers();
  if (values.workers !== undefined) {
    workers = Number(values.workers);
    if (!Number.isSafeInteger(workers) || workers < 1 || workers > 64)
      throw new UsageError(`--workers takes a whole number from 1 to 64, got "${values.workers}"`);
  }
  const path = storePath(values.store);
  // the store must exist: opened (read-only) once here so that a wrong path is named before any worker starts
  await openStoreReadOnly(path).store.close();
  try {
    const r = await prepareReadings({
      storePath: path,
      workers,
      onProgress: ({ tablesDone, tablesToDo, eventsRead }) =>
        progress(
          `keeping readings: ${tablesDone.toLocaleString('en-US')} of ${tablesToDo.toLocaleString('en-US')} tables derived, ${eventsRead.toLocaleString('en-US')} events read`,
        ),
    });
    progressDone();
    out(
      values.json
        ? json(r)
        : `Readings kept ready in ${r.file}: ${r.tablesDerived.toLocaleString('en-US')} of ${r.tables.toLocaleString('en-US')} tables derived (${r.eventsRead.toLocaleString('en-US')} events read; the others were current), each under every alternative reading of its rounds’ rule sets (${r.tableReadings.toLocaleString('en-US')} derivations of a table under a reading), in ${(r.elapsedMs / 1000).toFixed(1)} s.\n`,
    );
    return 0;
  } catch (e) {
    if (e instanceof ReadingsFileRefused) throw new UsageError(e.message);
    throw e;
  }
}

/** `replay ROUND_ID --what-if all`: the round under each selectable alternative of its rule set. Reads the store only. */
async function everyReading(values: WhatIfValues, positionals: string[]): Promise<number> {
  if (!positionals.length)
    throw new UsageError(
      '--what-if all is for one round (table-audit replay ROUND_ID --what-if all); over a period, name the readings to compare, e.g. --what-if J11=ALT',
    );
  refuseOptions(
    values,
    ['live', 'alternative', 'anchors', 'shard', 'from', 'to', 'casino', 'table', 'workers', 'derive'],
    '--what-if all',
  );
  const opened = openStoreReadOnly(storePath(values.store));
  try {
    // on a terminal: how far the two reads of the table have gone (a round late in a long table takes seconds)
    const x = await roundReadings(opened.store, positionals.join(' '), undefined, undefined, progress);
    progressDone();
    out(values.json ? json(x) : roundReadingsText(x));
    return 0;
  } finally {
    await opened.store.close();
  }
}

/** `replay --what-if …`: a period, or one round side by side. Reads the store only. */
async function whatIf(values: WhatIfValues, positionals: string[]): Promise<number> {
  if (values['what-if']!.trim().toLowerCase() === 'all') return everyReading(values, positionals);
  let keys: string[];
  try {
    keys = parseWhatIf(values['what-if']!);
  } catch (e) {
    if (e instanceof WhatIfSpecError) throw new UsageError(e.message);
    throw e;
  }
  if (!keys.length)
    throw new UsageError(
      '--what-if names no alternative reading (every item is ID=CHOSEN): nothing to compare',
    );
  refuseOptions(values, ['live', 'alternative', 'anchors', 'shard'], '--what-if');
  const path = storePath(values.store);
  if (positionals.length) {
    for (const o of ['from', 'to', 'casino', 'table', 'workers', 'derive'] as const)
      if (values[o] !== undefined)
        throw new UsageError(`--${o} is for a period; with a round id the round alone is compared`);
    const opened = openStoreReadOnly(path);
    try {
      const x = await explainRoundWhatIf(opened.store, positionals.join(' '), keys);
      out(
        values.json
          ? json({
              roundId: x.roundId,
              tableId: x.tableId,
              readings: x.readings,
              chosen: x.chosen.json,
              alternative: x.alternative.json,
            })
          : roundWhatIfText(x, Math.max(100, Math.min(220, process.stdout.columns ?? 160))),
      );
      return 0;
    } finally {
      await opened.store.close();
    }
  }
  if (values.from === undefined || values.to === undefined)
    throw new UsageError('--what-if over a period needs --from D and --to D (Macau dates, YYYY-MM-DD)');
  let workers = defaultWorkers();
  if (values.workers !== undefined) {
    workers = Number(values.workers);
    if (!Number.isSafeInteger(workers) || workers < 1 || workers > 64)
      throw new UsageError(`--workers takes a whole number from 1 to 64, got "${values.workers}"`);
  }
  // the store must exist: opened (read-only) once here so that a wrong path is named before any worker starts
  await openStoreReadOnly(path).store.close();
  try {
    const report = await runWhatIf({
      storePath: path,
      alternatives: keys,
      kept: !values.derive,
      scope: {
        from: values.from,
        to: values.to,
        ...(values.casino !== undefined ? { casino: values.casino } : {}),
        ...(values.table !== undefined ? { tableId: values.table } : {}),
      },
      workers,
      loader: new URL('../../bin/register-ts.mjs', import.meta.url).href,
      // on a terminal: how far the workers have read the store (a month of play takes minutes)
      onProgress: ({ eventsRead, eventsTotal }) =>
        progress(
          eventsTotal
            ? `what-if: ${eventsRead.toLocaleString('en-US')} of ${eventsTotal.toLocaleString('en-US')} events read (${Math.floor((100 * eventsRead) / eventsTotal)} %)`
            : `what-if: ${eventsRead.toLocaleString('en-US')} events read`,
        ),
    });
    progressDone();
    out(values.json ? json(report) : whatIfText(report));
    return 0;
  } catch (e) {
    if (e instanceof WhatIfRequestError) throw new UsageError(`--what-if: ${e.message}`);
    throw e;
  }
}
