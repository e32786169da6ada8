/**
 * Exact-math timings on this machine: the six-card enumeration (target under 30 s) and the full Ante/Play
 * analysis (target under 120 s), each run on one core, with peak RSS.
 */
import { analyseAntePlay, enumerateBestFive, F3CP_2025A } from '@table-audit/rules';

const t0 = performance.now();
const six = enumerateBestFive(6);
const sixSeconds = (performance.now() - t0) / 1000;
const t1 = performance.now();
const antePlay = analyseAntePlay(F3CP_2025A);
const antePlaySeconds = (performance.now() - t1) / 1000;
console.log(
  JSON.stringify({
    bench: 'f3cp exact math, one core',
    sixCardSets: six.total,
    sixCardSeconds: Number(sixSeconds.toFixed(2)),
    sixCardSetsPerSecond: Math.round(six.total / sixSeconds),
    sixCardTargetSeconds: 30,
    antePlayPairs: antePlay.comparisons,
    antePlaySeconds: Number(antePlaySeconds.toFixed(2)),
    antePlayTargetSeconds: 120,
    meetsTargets: sixSeconds < 30 && antePlaySeconds < 120,
    peakRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
  }),
);
