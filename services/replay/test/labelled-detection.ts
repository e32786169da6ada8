import type { GroundTruth } from '@table-audit/simulator';
import type { Finding } from '@table-audit/rules';

export interface CheckTally {
  injected: number;
  found: number;
  falsePositives: number;
}

/**
 * A labelled session's findings held against its ground truth, round by round: the faults missed, the findings on
 * rounds that did not carry their check, and a tally per check id. Shared by the games' detection proofs.
 */
export function labelledDetection(
  truth: readonly GroundTruth[],
  findings: readonly Finding[],
  checkIds: readonly string[],
): {
  missed: string[];
  unexpected: string[];
  perCheck: Map<string, CheckTally>;
  report(width: number): string;
} {
  const perCheck = new Map(checkIds.map((id) => [id, { injected: 0, found: 0, falsePositives: 0 }]));
  const truthOf = new Map<string, Set<string>>();
  for (const t of truth)
    if (t.roundId) truthOf.set(t.roundId, new Set([...(truthOf.get(t.roundId) ?? []), ...t.checkIds]));
  const missed: string[] = [];
  for (const t of truth)
    for (const checkId of t.checkIds) {
      const c = perCheck.get(checkId)!;
      c.injected++;
      if (findings.some((f) => f.roundId === t.roundId && f.checkId === checkId)) c.found++;
      else missed.push(`${t.fault} ${t.roundId}: ${checkId}`);
    }
  const unexpected: string[] = [];
  for (const f of findings)
    if (!(f.roundId && truthOf.get(f.roundId)?.has(f.checkId))) {
      const c = perCheck.get(f.checkId);
      if (c) c.falsePositives++;
      unexpected.push(`${f.checkId} ${f.roundId ?? f.tableId}: ${f.summary}`);
    }
  const report = (width: number) =>
    [...perCheck]
      .map(
        ([id, c]) =>
          `${id.padEnd(width)} injected ${String(c.injected).padStart(4)}  found ${String(c.found).padStart(4)}  false positives ${c.falsePositives}`,
      )
      .join('\n');
  return { missed, unexpected, perCheck, report };
}
