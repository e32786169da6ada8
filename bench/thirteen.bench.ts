/**
 * 13 Cards arrangement solver (Portaria 51/89/M art. 7.º–10.º, T1): hands/s on one core (the main thread), beside
 * a baseline measured in the same run on the same deals: the brute force the solver replaces, which judges all
 * 72,072 tier splits of a hand with the plain code. The brute force also re-proves optimality on a larger sample
 * than `pnpm test` does: every solver answer must be legal and score what the best split scores.
 * Target: at least 2,000 hands/s. BENCH_HANDS (solver timing), BENCH_PROOF_HANDS (brute force), BENCH_RUNS.
 */
import { seededRng, shuffledDeck } from '@table-audit/rules';
import {
  arrangeAlone,
  bestArrangementAgainst,
  judgeArrangement,
  marginOf,
  scorePlace,
  type JudgedArrangement,
} from '@table-audit/rules/thirteen';

const HANDS = Number(process.env.BENCH_HANDS ?? 5_000);
const PROOF_HANDS = Number(process.env.BENCH_PROOF_HANDS ?? 150);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);

const r = seededRng(5189);
const deals = Array.from({ length: HANDS }, () => {
  const deck = shuffledDeck(r);
  return { banker: arrangeAlone(deck.slice(0, 13)).judged, hand: deck.slice(13, 26) };
});

function bruteForce(hand: readonly number[], banker: JudgedArrangement): number {
  let best = Number.NEGATIVE_INFINITY;
  for (let b = 0; b < 1 << 13; b++) {
    if (bits(b) !== 5) continue;
    const rest: number[] = [];
    const back: number[] = [];
    for (let i = 0; i < 13; i++) (b & (1 << i) ? back : rest).push(hand[i]!);
    for (let m = 0; m < 256; m++) {
      if (bits(m) !== 5) continue;
      const middle = rest.filter((_, j) => m & (1 << j));
      const front = rest.filter((_, j) => !(m & (1 << j)));
      const judged = judgeArrangement({ front, middle, back });
      if (!judged.foul) best = Math.max(best, marginOf(scorePlace(judged, banker)));
    }
  }
  return best;
}
const bits = (x: number): number => {
  let n = 0;
  for (let v = x; v; v &= v - 1) n++;
  return n;
};

let sink = 0;
const rates: number[] = [];
for (let run = 0; run < RUNS; run++) {
  const t0 = performance.now();
  for (const d of deals) sink += bestArrangementAgainst(d.hand, d.banker).margin;
  rates.push(HANDS / ((performance.now() - t0) / 1000));
}
const warm = rates.slice(1).sort((a, b) => a - b);
const median = warm[Math.floor(warm.length / 2)] ?? rates[0]!;

let notBest = 0;
let fouls = 0;
const t1 = performance.now();
for (const d of deals.slice(0, PROOF_HANDS)) {
  const solved = bestArrangementAgainst(d.hand, d.banker);
  if (solved.judged.foul) fouls++;
  if (solved.margin !== bruteForce(d.hand, d.banker)) notBest++;
}
const bruteSeconds = (performance.now() - t1) / 1000;
const bruteRate = PROOF_HANDS / bruteSeconds;

console.log(
  JSON.stringify({
    bench: '13 Cards solver: best legal arrangement against the banker (T1), one core',
    hands: HANDS,
    runs: rates.map((x) => Math.round(x)),
    medianHandsPerSecond: Math.round(median),
    baseline: 'brute force over all 72,072 tier splits, same deals, same run',
    baselineHandsPerSecond: Number(bruteRate.toFixed(1)),
    speedup: Math.round(median / bruteRate),
    target: 2_000,
    meetsTarget: median >= 2_000,
    proof: { hands: PROOF_HANDS, notBest, fouls, ok: notBest === 0 && fouls === 0 },
    marginSum: sink,
    peakRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
  }),
);
if (notBest > 0 || fouls > 0) process.exitCode = 1;
