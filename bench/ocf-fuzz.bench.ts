/**
 * Events-file fuzzing, the long run (the CI test runs 2,000 inputs): seeded mutations of valid events files — bit
 * flips, truncations, inserted bytes, huge declared counts and lengths — through file ingest. Prints, per codec and
 * mutation, the inputs, events handed to the store unchanged, events lost (each input that lost one has a reject
 * keeping its bytes or a reference), rejects, and the inputs in which an event was changed without any reject
 * (silently): what a codec's checksum protects. Any problem (a crash, an event neither stored nor rejected, a
 * reject without bytes or reason) is printed and makes the run fail.
 *
 *   pnpm bench ocf-fuzz            FUZZ_INPUTS=20000 FUZZ_SEED=7 pnpm bench ocf-fuzz
 */
import { simulateSession } from '@table-audit/simulator';
import { fuzzEventsFiles } from '../services/ingest/test/ocf-fuzz.ts';

const inputs = Number(process.env['FUZZ_INPUTS'] ?? 9000);
const seed = Number(process.env['FUZZ_SEED'] ?? 1);
const events = simulateSession({ seed: 3, tables: 2, roundsPerTable: 4, faultRate: 0 }).events.slice(0, 200);
const report = await fuzzEventsFiles({
  seed,
  inputs,
  codecs: ['snappy', 'deflate', 'null'],
  events,
  blockSize: 2048,
});

const pad = (s: string | number, n: number) => String(s).padStart(n);
console.log(
  `ocf-fuzz: ${inputs} inputs (seed ${seed}), ${events.length} events per file, ${(report.totalMs / 1000).toFixed(1)} s, slowest input ${Math.round(report.slowestMs)} ms`,
);
console.log(
  `${'codec mutation'.padEnd(22)}${pad('inputs', 8)}${pad('stored', 10)}${pad('lost', 8)}${pad('rejects', 9)}${pad('silent', 8)}${pad('in blocks', 11)}${pad('cut at block', 14)}`,
);
for (const [key, c] of [...report.counts].sort(([a], [b]) => (a < b ? -1 : 1)))
  console.log(
    `${key.padEnd(22)}${pad(c.inputs, 8)}${pad(c.stored, 10)}${pad(c.lost, 8)}${pad(c.rejects, 9)}${pad(c.silentlyChanged, 8)}${pad(c.silentlyChangedInBlocks, 11)}${pad(c.undetectable, 14)}`,
  );
for (const codec of ['snappy', 'deflate', 'null']) {
  const flips = report.counts.get(`${codec} bit-flip`);
  if (flips)
    console.log(
      `single-bit flips, ${codec}: an event changed silently in ${flips.silentlyChanged} of ${flips.inputs} trials (${flips.silentlyChangedInBlocks} of them in the blocks, the rest in the header's schema)`,
    );
}
if (report.problems.length) {
  for (const p of report.problems.slice(0, 20))
    console.log(`PROBLEM input ${p.input} (${p.codec} ${p.mutation}): ${p.problem}`);
  console.log(`${report.problems.length} problem(s)`);
  process.exit(1);
}
