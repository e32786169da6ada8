/**
 * Not a benchmark (run-bench picks only *.bench.ts): replays the labelled detection session in memory and digests
 * every finding (sorted by id, the whole finding: ids, check ids, citations, expected/declared, evidence ids), the
 * rounds not derived and every round's record (the lines, totals and interpretations the replay writes), so that a change meant to be speed only can be shown to find exactly what it found
 * before (findings-digest.test.ts holds the digest recorded before the replay was optimised):
 *   node --import ./apps/cli/bin/register-ts.mjs bench/findings-digest.ts [OUT.json]
 * OUT.json receives the sorted findings in full, for a diff.
 */
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { replayEvents } from '@table-audit/replay';
import { simulateSession } from '@table-audit/simulator';

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

export interface FindingsDigest {
  events: number;
  rounds: number;
  findings: number;
  notDerived: number;
  idsAndSummariesSha256: string;
  inReplayOrderSha256: string;
  wholeFindingsSha256: string;
  /** every round's record (what the replay appends to `rounds-<table>`), as JSON in replay order */
  roundRecordsSha256: string;
}

/** The labelled session of services/replay/test/detection.test.ts, replayed; `text` is the sorted findings. */
export function labelledSessionDigest(): { digest: FindingsDigest; text: string } {
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
  const digest = {
    events: session.events.length,
    rounds: result.rounds.length,
    findings: findings.length,
    notDerived: notDerived.length,
    idsAndSummariesSha256: sha256(findings.map((f) => `${f.findingId} ${f.summary}`).join('\n')),
    inReplayOrderSha256: sha256(result.findings.map((f) => JSON.stringify(f)).join('\n')),
    wholeFindingsSha256: sha256(text),
    roundRecordsSha256: sha256(result.rounds.map((r) => JSON.stringify(r.record)).join('\n')),
  };
  return { digest, text };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { digest, text } = labelledSessionDigest();
  const out = process.argv[2];
  if (out) writeFileSync(out, text);
  console.log(JSON.stringify(digest));
}
