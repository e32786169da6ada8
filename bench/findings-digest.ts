/**
 * Not a benchmark (run-bench picks only *.bench.ts): replays the labelled detection session in memory and prints a
 * digest of every finding (sorted by id, the whole finding) and of the rounds not derived, so that a change meant
 * to be speed only can be shown to find exactly what it found before:
 *   node --import ./apps/cli/bin/register-ts.mjs bench/findings-digest.ts [OUT.json]
 * OUT.json receives the sorted findings in full, for a diff.
 */
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { replayEvents } from '@table-audit/replay';
import { simulateSession } from '@table-audit/simulator';

const session = simulateSession({
  seed: 2025,
  tables: 205,
  roundsPerTable: 50,
  faultRate: 0.12,
  handledRate: 0.06,
  bettingSystemTables: 2,
  collusionTables: 3,
  collusionRounds: 400,
});
const result = replayEvents(session.events);
const findings = [...result.findings].sort((a, b) =>
  a.findingId < b.findingId ? -1 : a.findingId > b.findingId ? 1 : a.summary < b.summary ? -1 : 1,
);
const notDerived = result.notDerived.map((n) => `${n.roundId} ${n.reason.code}`).sort();
const text = JSON.stringify({ findings, notDerived, rounds: result.rounds.length }, null, 1);
const out = process.argv[2];
if (out) writeFileSync(out, text);
const idsAndSummaries = findings.map((f) => `${f.findingId} ${f.summary}`).join('\n');
console.log(
  JSON.stringify({
    events: session.events.length,
    rounds: result.rounds.length,
    findings: findings.length,
    notDerived: notDerived.length,
    idsAndSummariesSha256: createHash('sha256').update(idsAndSummaries).digest('hex'),
    inReplayOrderSha256: createHash('sha256')
      .update(result.findings.map((f) => JSON.stringify(f)).join('\n'))
      .digest('hex'),
    wholeFindingsSha256: createHash('sha256').update(text).digest('hex'),
  }),
);
