import { parseArgs } from 'node:util';
import { explainRound, ReplayService } from '@table-audit/replay';
import type { Finding } from '@table-audit/rules';
import { json, out, type Command } from './command.ts';
import { openStore, progress, progressDone, storePath } from './store.ts';

const usage = `Usage: table-audit replay ROUND_ID [--json] [--store PATH]     the disputed hand, step by step
       table-audit replay [--live] [--store PATH]                  replay the store, append findings

With a round id: rebuilds the round from the event store alone and prints each event, each rule applied with its
article, each bet's expected settlement beside the declared one, and each finding. Without: replays every table
from the replay's durable checkpoint and appends findings (re-running appends nothing new); --live keeps
following new events until interrupted.`;

export const replayCommand: Command = {
  name: 'replay',
  summary: 'replay the store and append findings, or explain one round step by step',
  usage,
  async run(args) {
    const { values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      options: { store: { type: 'string' }, json: { type: 'boolean' }, live: { type: 'boolean' } },
    });
    const opened = openStore(storePath(values.store), { mustExist: true });
    const store = opened.store;
    try {
      if (positionals.length) {
        const x = await explainRound(store, positionals.join(' '));
        out(values.json ? json(x.json) : x.text);
        return 0;
      }
      const findings: Finding[] = [];
      const service = new ReplayService({ store, onFinding: (f) => findings.push(f) });
      const t0 = performance.now();
      if (values.live) {
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
        await service.live(abort.signal);
        clearInterval(timer);
      } else {
        await service.catchUp();
        await service.finish();
      }
      progressDone();
      const s = service.stats;
      const seconds = (performance.now() - t0) / 1000;
      out(
        `replayed ${s.events.toLocaleString('en-US')} events, ${s.rounds.toLocaleString('en-US')} rounds in ${seconds.toFixed(1)} s; findings appended ${s.findingsAppended}, already stored ${s.findingsAlreadyStored}; rounds not re-derived ${s.notDerived}`,
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
      return 0;
    } finally {
      await opened.close(false);
    }
  },
};
