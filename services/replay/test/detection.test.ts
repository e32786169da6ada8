import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ROUND_FAULTS, simulateSession } from '@table-audit/simulator';
import { ALL_F3CP_CHECK_IDS } from '@table-audit/rules';
import { replayEvents } from '../src/replay-events.ts';

/**
 * The labelled simulation: 200 tables x 50 rounds with every fault kind injected (and irregularities handled
 * correctly as negative controls), two tables with a doubling bettor and three with colluders. Every injected
 * fault must be found under its check id; no finding may appear on a clean round; every check id is exercised.
 */
describe('detection, proven on a labelled simulation', () => {
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
  const roundTruth = new Map<string, Set<string>>();
  for (const t of session.truth)
    if (t.roundId) roundTruth.set(t.roundId, new Set([...(roundTruth.get(t.roundId) ?? []), ...t.checkIds]));
  const perCheck = new Map<string, { injected: number; found: number; falsePositives: number }>(
    ALL_F3CP_CHECK_IDS.map((id) => [id, { injected: 0, found: 0, falsePositives: 0 }]),
  );

  it('injects every fault kind, on 10,000+ rounds', () => {
    const kinds = new Set(session.truth.map((t) => t.fault));
    for (const k of [...ROUND_FAULTS, 'betting-system', 'collusion'])
      assert.ok(kinds.has(k as never), `fault ${k} injected`);
    assert.ok(result.rounds.length >= 10_000, `${result.rounds.length} rounds`);
  });

  it('derives every round that an event names, or says why not', () => {
    const named = new Set(session.events.map((e) => e.data.header.roundId).filter((r) => r !== null));
    const replayed = new Set(result.rounds.map((r) => r.roundId));
    assert.deepEqual(
      [...named].filter((id) => !replayed.has(id)),
      [],
    );
    assert.deepEqual(result.unjudged, []);
  });

  it('finds every injected fault under its check id', () => {
    const missed: string[] = [];
    for (const t of session.truth) {
      for (const checkId of t.checkIds) {
        const c = perCheck.get(checkId)!;
        c.injected++;
        const hit = t.roundId
          ? result.findings.some((f) => f.roundId === t.roundId && f.checkId === checkId)
          : result.findings.some(
              (f) =>
                f.tableId === t.tableId &&
                f.checkId === checkId &&
                f.players.every((p) => t.players!.includes(p)),
            );
        if (hit) c.found++;
        else missed.push(`${t.fault} ${t.roundId ?? t.tableId}: ${checkId}`);
      }
    }
    assert.deepEqual(missed, []);
  });

  it('raises nothing on clean rounds and nothing but the injected checks on faulty ones', () => {
    const unexpected: string[] = [];
    for (const f of result.findings) {
      const expected = f.roundId && roundTruth.get(f.roundId)?.has(f.checkId);
      const conduct = session.truth.some(
        (t) =>
          !t.roundId &&
          t.tableId === f.tableId &&
          t.checkIds.includes(f.checkId) &&
          f.players.every((p) => t.players!.includes(p)),
      );
      if (!expected && !conduct) {
        perCheck.get(f.checkId)!.falsePositives++;
        unexpected.push(`${f.checkId} ${f.roundId ?? f.tableId}: ${f.summary}`);
      }
    }
    assert.deepEqual(unexpected, []);
  });

  it('exercises every check id of the spec, and reports per check id', () => {
    const rows = [...perCheck].map(
      ([id, c]) =>
        `${id.padEnd(48)} injected ${String(c.injected).padStart(4)}  found ${String(c.found).padStart(4)}  false positives ${c.falsePositives}`,
    );
    console.log(
      `detection per check id (${result.rounds.length} rounds, ${session.events.length} events, ${result.findings.length} findings):\n${rows.join('\n')}`,
    );
    for (const [id, c] of perCheck) assert.ok(c.injected > 0, `${id} exercised`);
  });
});
