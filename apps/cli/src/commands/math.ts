import { parseArgs } from 'node:util';
import {
  compareAntePlay,
  f3cp2008MathReport,
  crapsHouseEdges,
  crapsMathReport,
  f3cpMathReport,
  toJson,
  withReadings,
  type F3cp2008MathReport,
  f3cpRules,
  mathReportJson,
  toDecimal,
  type F3cpMathReport,
  ruleSetById,
  type CrapsRuleSet,
} from '@table-audit/rules';
import { json, out, UsageError, type Command } from './command.ts';

const usage = `Usage: table-audit math f3cp [--rules f3cp-2025a|f3cp-2025|f3cp-2008a|f3cp-2008] [--json] [--hands]
                          [--compare RULE_SET] [--alternative H1]
       table-audit math craps [--rules craps-2010] [--json]

Exact Fortune 3 Card Poker figures by full enumeration, with the same evaluator and settlement code as the replay:
class counts of all 22,100 three-card hands; the optimal Ante/Play strategy over every player hand against every
banker hand (407,170,400 pairs), its house edge and element of risk; the Pair Plus house edge; the Six Card Bonus
counts over all 20,358,520 six-card sets and its house edge; Progressive Jackpot qualifying counts over all
2,598,960 five-card hands. Fractions are exact; decimals are truncated, not rounded.

  --rules ID      rule set (default f3cp-2025a, 89/2025 as amended by 94/2025)
  --json          machine-readable report
  --hands         include the expected values of all 1,755 suit-pattern groups of hands (with --json)
  --compare ID    also analyse rule set ID and list the hands whose Ante/Play value differs
  --alternative H1  (2008 rules) the alternative reading of interpretation H1: A-K-Q of one suit a Flush

The 2008 rule sets (Despacho 78/2008; art. 9.º re-worded by 97/2008) have only the Ante (with its Play bet and the
Ante bonus of art. 9.º 8)) and Pair Plus (art. 10.º): their report has no Six Card Bonus or jackpot part.

craps: the exact house edge of every bet of Despacho 53/2010 (per unit staked, per bet resolved), from the
replay's own engine playing the 36 throws of two dice; the Field once for each table option of the 12.`;

function text2008(r: F3cp2008MathReport): string {
  const a = r.antePlay;
  return [
    `Fortune Poker de 3 Cartas — ${r.ruleSet} (${r.title})`,
    '',
    `Three-card hands (${r.threeCardHands.total}):`,
    ...Object.entries(r.threeCardHands.counts).map(([k, v]) => `  ${k.padEnd(16)} ${String(v).padStart(7)}`),
    '',
    `Ante/Play with the Ante bonus 5/4/1 (art. 9.º 8)), optimal strategy: play ${a.weakestPlayed} or better${a.thresholdIsClean ? '' : ` (exceptions: ${a.exceptions.join(', ')})`}`,
    `  (a player who also bet Pair Plus must play, art. 9.º 3): these figures are for the Ante alone)`,
    `  hands played       ${a.playProbability.num}/${a.playProbability.den} = ${pct(a.playProbability)}`,
    `  house edge (Ante)  ${a.houseEdge.num}/${a.houseEdge.den} = ${pct(a.houseEdge)}`,
    `  element of risk    ${a.elementOfRisk.num}/${a.elementOfRisk.den} = ${pct(a.elementOfRisk)}`,
    `  pairs compared     ${a.comparisons.toLocaleString('en-US')}`,
    '',
    `Pair Plus 40/25/5/4/1 (art. 10.º) house edge: ${r.pairPlus.houseEdge.num}/${r.pairPlus.houseEdge.den} = ${pct(r.pairPlus.houseEdge)}`,
    '',
    `Timings (ms): ${Object.entries(r.timingsMs)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
  ].join('\n');
}

/** \`math craps\`: every bet's exact house edge, as a fraction and a decimal. */
function crapsMath(rulesId: string, asJson: boolean): number {
  const entry = ruleSetById(rulesId);
  if (entry.game !== 'craps' || !entry.rules)
    throw new UsageError(`--rules must be an implemented craps rule set, got ${rulesId}`);
  const rules = entry.rules as CrapsRuleSet;
  if (!asJson) out(crapsMathReport(rules));
  else
    out(
      json({
        ruleSet: rules.id,
        bets: crapsHouseEdges(rules).map((e) => ({
          bet: e.bet,
          paidBy: e.paidBy,
          houseEdge: { fraction: `${e.houseEdge.num}/${e.houseEdge.den}`, percent: pct(e.houseEdge) },
        })),
      }),
    );
  return 0;
}

const pct = (f: { num: bigint; den: bigint }): string =>
  `${toDecimal({ num: f.num * 100n, den: f.den }, 4)}%`;

function text(r: F3cpMathReport): string {
  const a = r.antePlay;
  const lines = [
    `Fortune 3 Card Poker — ${r.ruleSet}`,
    '',
    `Three-card hands (${r.threeCardHands.total}):`,
    ...Object.entries(r.threeCardHands.counts).map(([k, v]) => `  ${k.padEnd(16)} ${String(v).padStart(7)}`),
    '',
    `Ante/Play, optimal strategy: play ${a.weakestPlayed} or better${a.thresholdIsClean ? '' : ` (exceptions: ${a.exceptions.join(', ')})`}`,
    `  hands played       ${a.playProbability.num}/${a.playProbability.den} = ${pct(a.playProbability)}`,
    `  house edge (Ante)  ${a.houseEdge.num}/${a.houseEdge.den} = ${pct(a.houseEdge)}`,
    `  element of risk    ${a.elementOfRisk.num}/${a.elementOfRisk.den} = ${pct(a.elementOfRisk)}`,
    `  pairs compared     ${a.comparisons.toLocaleString('en-US')}`,
    '',
    `Pair Plus house edge: ${r.pairPlus.houseEdge.num}/${r.pairPlus.houseEdge.den} = ${pct(r.pairPlus.houseEdge)}`,
    '',
    `Six Card Bonus, best five of ${r.sixCardBonus.total.toLocaleString('en-US')} six-card sets:`,
    ...Object.entries(r.sixCardBonus.counts).map(([k, v]) => `  ${k.padEnd(16)} ${String(v).padStart(9)}`),
    `  house edge: ${r.sixCardBonus.houseEdge.num}/${r.sixCardBonus.houseEdge.den} = ${pct(r.sixCardBonus.houseEdge)}`,
    '',
    `Progressive Jackpot qualifying hands among ${r.progressiveJackpot.total.toLocaleString('en-US')} five-card hands:`,
    ...Object.entries(r.progressiveJackpot.qualifying).map(
      ([k, v]) => `  ${k.padEnd(16)} ${String(v).padStart(7)}`,
    ),
    '',
    `Timings (ms): ${Object.entries(r.timingsMs)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
  ];
  return lines.join('\n');
}

export const mathCommand: Command = {
  name: 'math',
  summary: 'exact house figures of a game by full enumeration (math f3cp --rules …)',
  usage,
  async run(args) {
    const { values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      options: {
        rules: { type: 'string' },
        json: { type: 'boolean' },
        hands: { type: 'boolean' },
        compare: { type: 'string' },
        alternative: { type: 'string', multiple: true },
      },
    });
    if (positionals[0] === 'craps' && positionals.length === 1)
      return crapsMath(values.rules ?? 'craps-2010', values.json ?? false);
    values.rules ??= 'f3cp-2025a';
    if (positionals[0] !== 'f3cp' || positionals.length > 1)
      throw new UsageError('the games with exact math are f3cp and craps');
    if (!values.rules.startsWith('f3cp-'))
      throw new UsageError(`--rules must be an f3cp rule set, got ${values.rules}`);
    const now = () => performance.now();
    const rules = f3cpRules(values.rules!);
    const alternatives = values.alternative ?? [];
    if (rules.era === '2008') {
      if (values.compare) throw new UsageError('--compare is for the 2025 rule sets');
      let chosen;
      try {
        chosen = withReadings(rules, alternatives);
      } catch (e) {
        throw new UsageError(`--alternative: ${(e as Error).message}`);
      }
      const r = f3cp2008MathReport(chosen, now);
      if (values.json) {
        const a = r.antePlay;
        out(
          json({
            ruleSet: r.ruleSet,
            title: r.title,
            alternatives,
            threeCardHands: r.threeCardHands,
            antePlay: {
              strategy: {
                weakestPlayed: a.weakestPlayed,
                thresholdIsClean: a.thresholdIsClean,
                exceptions: a.exceptions,
              },
              playProbability: toJson(a.playProbability),
              expectedValuePerAnte: toJson(a.expectedValue),
              houseEdge: toJson(a.houseEdge),
              elementOfRisk: toJson(a.elementOfRisk),
              comparisons: a.comparisons,
            },
            pairPlus: { houseEdge: toJson(r.pairPlus.houseEdge) },
            timingsMs: r.timingsMs,
          }),
        );
      } else out(text2008(r));
      return 0;
    }
    if (alternatives.length) throw new UsageError('--alternative is for the 2008 rule sets (H1)');
    const report = f3cpMathReport(rules, now);
    const other = values.compare ? f3cpMathReport(f3cpRules(values.compare), now) : undefined;
    const diffs = other ? compareAntePlay(report.antePlay, other.antePlay) : undefined;
    if (values.json) {
      const body = mathReportJson(report, values.hands ?? false) as Record<string, unknown>;
      if (other && diffs) {
        body.comparison = {
          with: other.ruleSet,
          antePlay: (mathReportJson(other, false) as { antePlay: unknown }).antePlay,
          handGroupsThatDiffer: diffs.length,
          hands: diffs.map((d) => ({
            description: d.description,
            evPlay: { [report.ruleSet]: toDecimal(d.evPlayA), [other.ruleSet]: toDecimal(d.evPlayB) },
            decision: {
              [report.ruleSet]: d.playA ? 'play' : 'fold',
              [other.ruleSet]: d.playB ? 'play' : 'fold',
            },
          })),
        };
      }
      out(json(body));
    } else {
      out(text(report));
      if (other && diffs) {
        out(
          `\nCompared with ${other.ruleSet}: house edge ${pct(other.antePlay.houseEdge)}; ${diffs.length} suit-pattern hand groups differ in Ante/Play value:`,
        );
        for (const d of diffs.slice(0, 20))
          out(
            `  ${d.description.padEnd(24)} EV(play) ${toDecimal(d.evPlayA, 6)} vs ${toDecimal(d.evPlayB, 6)}`,
          );
        if (diffs.length > 20) out(`  … ${diffs.length - 20} more (use --json)`);
      }
    }
    return 0;
  },
};
