/**
 * The what-if replay over the other games (CRAPS, 13 Cards, Mah-Jong): with the default readings, or with readings
 * that govern none of the game's rounds, nothing differs; a reading that governs them is derived by the game's own
 * rules (the game module reads ReplayOptions.alternatives).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { simulateSession } from '@table-audit/simulator';
import type { TableEvent } from '@table-audit/rules';
import { WhatIfComparer } from '../src/what-if.ts';

const WHOLE = { from: '2000-01-01', to: '2099-12-31' };

function compareInMemory(events: readonly TableEvent[], alternatives: readonly string[]) {
  const c = new WhatIfComparer(WHOLE, alternatives);
  for (const e of events) c.apply(e);
  return c.finish(events.length);
}

const session = (game: string, seed: number) =>
  simulateSession({ seed, tables: 2, roundsPerTable: 10, game, faultRate: 0.3 } as Parameters<
    typeof simulateSession
  >[0]);

/** Readings that govern none of a game's rounds, and the default readings. */
const NOT_GOVERNING: Record<string, readonly (readonly string[])[]> = {
  CRAPS: [[], ['T1', 'T3', 'J2']],
  THIRTEEN_CARDS: [[], ['C1', 'C2', 'C3', 'C5', 'H2']],
  MAHJONG: [[], ['T1', 'C3', 'J11']],
};

describe('what-if replay: CRAPS, 13 Cards and Mah-Jong', () => {
  it('property: with the default readings (or readings of other games) nothing differs', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.constantFrom('CRAPS', 'THIRTEEN_CARDS', 'MAHJONG'),
        fc.nat(1),
        (seed, game, which) => {
          const alternatives = NOT_GOVERNING[game]![which]!;
          const r = compareInMemory(session(game, seed).events, alternatives);
          assert.ok(r.roundsCompared > 0, game);
          assert.equal(r.roundsChanged, 0, `${game} ${alternatives.join(',')}`);
          assert.deepEqual(r.changed, []);
          assert.equal(r.findingsAlternative, r.findingsChosen);
          for (const m of r.money) {
            assert.equal(m.alternativeNetAvos, m.chosenNetAvos, m.betType);
            assert.equal(m.linesChanged, 0);
          }
        },
      ),
      { numRuns: 8 },
    );
  });

  it('T3 over simulated 13 Cards play: the first card of every round is judged against the other place', () => {
    const r = compareInMemory(session('THIRTEEN_CARDS', 5).events, ['T3']);
    assert.ok(r.roundsChanged > 0);
    assert.ok(r.findings.some((f) => f.checkId === 'THIRTEEN.DEAL.START_PLACE' && f.appeared > 0));
    assert.ok(
      r.money.every((m) => m.linesChanged === 0),
      'T3 changes no payment',
    );
  });

  it('T2 over simulated 13 Cards play: the money changes by bet type, and the tables’ payments become mismatches', () => {
    const r = compareInMemory(session('THIRTEEN_CARDS', 5).events, ['T2']);
    assert.ok(r.money.some((m) => m.linesChanged > 0 && m.alternativeNetAvos !== m.chosenNetAvos));
    assert.ok(r.findings.some((f) => f.checkId === 'THIRTEEN.PAYOUT.MISMATCH' && f.appeared > 0));
  });
});
