import { parseArgs } from 'node:util';
import {
  f3cpMathReport,
  f3cpRules,
  formatMop,
  settleF3cpRound,
  F3CP_RULE_SETS,
  toDecimal,
} from '@table-audit/rules';
import { EVERY_BET, randomF3cpRound, rng } from '@table-audit/simulator';
import { out, UsageError, type Command } from './command.ts';

const usage = `Usage: table-audit run [--rounds N] [--seed S] [--skip-math]

The main job on the embedded defaults. For now: the rules engine settles N seeded sample rounds (7 seats, every
bet type) under each Fortune 3 Card Poker rule set, then prints the exact math report. Later stages (ingest,
event store, replay, ClickHouse, API) join this command as they land.`;

export const runCommand: Command = {
  name: 'run',
  summary: 'the main job end to end on the embedded defaults',
  usage,
  async run(args) {
    const { values } = parseArgs({
      args,
      options: {
        rounds: { type: 'string', default: '10000' },
        seed: { type: 'string', default: '2025' },
        'skip-math': { type: 'boolean' },
      },
    });
    const rounds = Number(values.rounds);
    const seed = Number(values.seed);
    if (!Number.isInteger(rounds) || rounds < 1)
      throw new UsageError(`--rounds must be a positive whole number, got ${values.rounds}`);
    for (const rules of F3CP_RULE_SETS) {
      const r = rng(seed);
      const byBet = new Map<string, { lines: number; staked: number; net: number; wins: number }>();
      let jackpotPaid = 0;
      const t0 = performance.now();
      for (let i = 0; i < rounds; i++) {
        const s = settleF3cpRound(randomF3cpRound(r, { seats: 7, ...EVERY_BET }), rules);
        for (const l of s.lines) {
          const b = byBet.get(l.bet) ?? { lines: 0, staked: 0, net: 0, wins: 0 };
          b.lines++;
          if (l.bet !== 'anteBonus') b.staked += l.amount;
          b.net += l.net;
          if (l.outcome === 'win') b.wins++;
          byBet.set(l.bet, b);
        }
        jackpotPaid += s.jackpot?.payments.length ?? 0;
      }
      const ms = performance.now() - t0;
      out(
        `\n${rules.title} (${rules.id}): ${rounds} sample rounds, seed ${seed}, ${Math.round((rounds / ms) * 1000).toLocaleString('en-US')} rounds/s including generation`,
      );
      out(
        `  ${'bet'.padEnd(13)} ${'lines'.padStart(7)} ${'wins'.padStart(7)} ${'staked'.padStart(20)} ${'player net'.padStart(20)}`,
      );
      for (const [bet, b] of byBet)
        out(
          `  ${bet.padEnd(13)} ${String(b.lines).padStart(7)} ${String(b.wins).padStart(7)} ${formatMop(b.staked).padStart(20)} ${formatMop(b.net).padStart(20)}`,
        );
      out(`  jackpot payments: ${jackpotPaid}`);
    }
    if (!values['skip-math']) {
      const rules = f3cpRules('f3cp-2025a');
      out(`\nExact math (${rules.id}), full enumeration …`);
      const m = f3cpMathReport(rules, () => performance.now());
      const pct = (f: { num: bigint; den: bigint }) => `${toDecimal({ num: f.num * 100n, den: f.den }, 4)}%`;
      out(
        `  strategy: play ${m.antePlay.weakestPlayed} or better; Ante house edge ${pct(m.antePlay.houseEdge)}, element of risk ${pct(m.antePlay.elementOfRisk)}`,
      );
      out(
        `  Pair Plus house edge ${pct(m.pairPlus.houseEdge)}; Six Card Bonus house edge ${pct(m.sixCardBonus.houseEdge)}`,
      );
      out(
        `  three-card classes: ${Object.entries(m.threeCardHands.counts)
          .map(([k, v]) => `${k} ${v}`)
          .join(', ')}`,
      );
      out(
        `  timings (ms): ${Object.entries(m.timingsMs)
          .map(([k, v]) => `${k} ${v}`)
          .join(', ')}`,
      );
      out('  full report: table-audit math f3cp --rules f3cp-2025a [--json]');
    }
    return 0;
  },
};
