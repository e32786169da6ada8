import { parseArgs } from 'node:util';
import {
  defaultWorkers,
  explainRound,
  MAX_DEFAULT_WORKERS,
  replayInParallel,
  ReplayService,
  shardCheckpoint,
  type ReplayStats,
} from '@table-audit/replay';
import { DEFAULT_REPLAY_OPTIONS, F3CP_ALTERNATIVE_READINGS, type Finding } from '@table-audit/rules';
import { ANCHOR_OPTIONS_USAGE, configuredAnchorer, describeAnchor, signedCheckpoint } from './anchors.ts';
import { json, out, UsageError, type Command } from './command.ts';
import { openConfiguredStore } from '../adapters.ts';
import { progress, progressDone } from './store.ts';

const usage = `Usage: table-audit replay ROUND_ID [--json] [--store PATH] [--alternative ID]...
                                                           the disputed hand, step by step
       table-audit replay [--workers N] [--store PATH]             replay the store, append findings and round records
       table-audit replay --live [--store PATH]                    the same, then follow new events

With a round id: rebuilds the round from the event store alone and prints each event, each rule applied with its
article, each bet's expected settlement beside the declared one, and each finding. Without: replays every table
from the replay's durable checkpoint and appends findings (findings-<table>) and one RoundDerived record per round
(rounds-<table>); re-running appends nothing new; --live keeps following new events until interrupted.

  --alternative ID  with a round id: read interpretation ID the alternative way instead of the register's chosen
                reading (may be repeated); selectable: ${Object.entries(F3CP_ALTERNATIVE_READINGS)
                  .map(([id, reading]) => `${id}, ${reading}`)
                  .join('; ')}. Only rounds under a rule set that the
                interpretation governs (H1: the 2008 rules) can be read so
  --workers N   replay in N worker threads, the tables sharded by a stable hash of their id, each shard under
                its own checkpoint (replay/shard-I-of-N); default the machine's cores, at most ${MAX_DEFAULT_WORKERS}
                (here ${defaultWorkers()}). 1 replays in this thread under the checkpoint "replay". Changing N starts the
                new shards from the beginning of the store: they append nothing already stored. --live runs in
                one thread

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
      },
    });
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
          `--live replays in one thread (a live shard per process is not built yet): leave out --workers ${workers}`,
        );
    }
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
      const service = new ReplayService({
        store,
        onFinding: (f) => findings.push(f),
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
        } finally {
          clearInterval(timer);
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
