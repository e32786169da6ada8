import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { IngestPipeline, ingestFiles } from '@table-audit/ingest';
import { explainRound, explanationText, ReplayService, type Finding } from '@table-audit/replay';
import { f3cpMathReport, f3cpRules, toDecimal } from '@table-audit/rules';
import { ROUND_FAULTS, simulateSession, writeSessionFile } from '@table-audit/simulator';
import { out, UsageError, type Command } from './command.ts';
import { openStore } from './store.ts';

const usage = `Usage: table-audit run [--dir DIR] [--tables N] [--rounds N] [--seed S] [--math]

The main job end to end on the embedded defaults: the simulator writes seeded table sessions with labelled faults
to an Avro object container file; ingest validates them into the SQLite event store; the replay re-derives every
round under the rules in force, appends its findings and compares them with the simulator's ground truth; one
disputed hand is explained step by step. Everything goes to --dir (default data/run, recreated on each run).
--math adds the exact math report (about 10 s). ClickHouse, the API and the UI join this command as they land.`;

export const runCommand: Command = {
  name: 'run',
  summary: 'the main job end to end on the embedded defaults',
  usage,
  async run(args) {
    const { values } = parseArgs({
      args,
      options: {
        dir: { type: 'string', default: 'data/run' },
        tables: { type: 'string', default: '40' },
        rounds: { type: 'string', default: '50' },
        seed: { type: 'string', default: '2025' },
        math: { type: 'boolean' },
      },
    });
    const [tables, rounds, seed] = [Number(values.tables), Number(values.rounds), Number(values.seed)];
    if (![tables, rounds, seed].every((x) => Number.isInteger(x) && x > 0))
      throw new UsageError('--tables, --rounds and --seed take positive whole numbers');
    const dir = values.dir!;
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'session.avro');
    const storeFile = join(dir, 'events.sqlite');

    let t = performance.now();
    const session = simulateSession({
      seed,
      tables,
      roundsPerTable: rounds,
      faultRate: 0.1,
      faults: ROUND_FAULTS,
      handledRate: 0.05,
      bettingSystemTables: 1,
      collusionTables: 1,
      collusionRounds: 400,
    });
    const written = await writeSessionFile(file, session.events);
    out(
      `1. simulator: ${tables} tables x ${rounds} rounds (+1 table of 400 rounds with colluders), ${written.events.toLocaleString('en-US')} events → ${file}; ${session.truth.length} labelled faults (${ms(t)})`,
    );

    const store = openStore(storeFile);
    try {
      t = performance.now();
      const pipeline = new IngestPipeline(store);
      const ingested = await ingestFiles([file], pipeline);
      out(
        `2. ingest: ${ingested.accepted.toLocaleString('en-US')} events appended to ${storeFile}, ${ingested.rejected} rejected (${ms(t)}, ${Math.round(ingested.accepted / ((performance.now() - t) / 1000)).toLocaleString('en-US')} events/s)`,
      );

      t = performance.now();
      const findings: Finding[] = [];
      const replay = new ReplayService({ store, onFinding: (f) => findings.push(f) });
      await replay.catchUp();
      await replay.finish();
      out(
        `3. replay: ${replay.stats.rounds.toLocaleString('en-US')} rounds re-derived, ${replay.stats.findingsAppended} findings appended (${ms(t)}, ${Math.round(replay.stats.rounds / ((performance.now() - t) / 1000)).toLocaleString('en-US')} rounds/s)`,
      );

      // against the simulator's labels: a round fault by round and check id, conduct over time by table and check id
      const hit = (x: (typeof session.truth)[number], checkId: string) =>
        findings.some(
          (f) => f.checkId === checkId && (x.roundId ? f.roundId === x.roundId : f.tableId === x.tableId),
        );
      const missed = session.truth.flatMap((x) => x.checkIds.filter((c) => !hit(x, c)));
      const labelled = (f: Finding) =>
        session.truth.some(
          (x) =>
            x.checkIds.includes(f.checkId) && (x.roundId ? f.roundId === x.roundId : f.tableId === x.tableId),
        );
      const unexpected = findings.filter((f) => !labelled(f));
      out(
        `4. findings by check (labelled faults missed: ${missed.length}, findings on clean rounds: ${unexpected.length}):`,
      );
      const byCheck = new Map<string, number>();
      for (const f of findings) byCheck.set(f.checkId, (byCheck.get(f.checkId) ?? 0) + 1);
      for (const [c, n] of [...byCheck].sort()) out(`     ${c.padEnd(48)} ${String(n).padStart(4)}`);
      const byCasino = new Map<string, number>();
      for (const f of findings)
        byCasino.set(
          `${f.casino} (${f.concessionaire})`,
          (byCasino.get(`${f.casino} (${f.concessionaire})`) ?? 0) + 1,
        );
      out('   by casino:');
      for (const [c, n] of [...byCasino].sort()) out(`     ${c.padEnd(48)} ${String(n).padStart(4)}`);

      const disputed =
        findings.find((f) => f.checkId === 'F3CP.PAYOUT.MISMATCH') ?? findings.find((f) => f.roundId);
      if (disputed?.roundId) {
        out(
          `\n5. disputed hand ${disputed.roundId} (table-audit replay ${disputed.roundId} --store ${storeFile}):\n`,
        );
        out(explanationText(await explainRound(store, disputed.roundId)));
      }
    } finally {
      await store.close();
    }

    if (values.math) {
      const rules = f3cpRules('f3cp-2025a');
      const m = f3cpMathReport(rules, () => performance.now());
      const pct = (f: { num: bigint; den: bigint }) => `${toDecimal({ num: f.num * 100n, den: f.den }, 4)}%`;
      out(
        `\n6. exact math (${rules.id}): play ${m.antePlay.weakestPlayed} or better; Ante house edge ${pct(m.antePlay.houseEdge)}, element of risk ${pct(m.antePlay.elementOfRisk)}; Pair Plus ${pct(m.pairPlus.houseEdge)}; Six Card Bonus ${pct(m.sixCardBonus.houseEdge)} (table-audit math f3cp for the full report)`,
      );
    }
    return 0;
  },
};

const ms = (t0: number): string => `${((performance.now() - t0) / 1000).toFixed(1)} s`;
