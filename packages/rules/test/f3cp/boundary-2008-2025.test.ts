import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { F3CP_MODULE } from '../../src/f3cp/module.ts';
import { macauDate } from '../../src/registry.ts';
import { TableBuilder } from './clean-round.ts';
import { THREE_HANDS_2008 } from './fixtures-2008.ts';
import { given, replayTable } from './spec.ts';

/**
 * One table session across the boundary of the rules: it opens on 2025-11-10 at 23:58 Macau time and plays on
 * past midnight into 2025-11-11, the day 89/2025 came into force (and revoked 78/2008 and 97/2008). Each round is
 * judged by the rule set of its own Macau date, and the disputed-hand explanation says which and why.
 */
function sessionOverMidnight() {
  const t = new TableBuilder({ jackpot: null, start: '2025-11-10T23:58:00+08:00' });
  const rounds = [
    t.round(THREE_HANDS_2008),
    t.round(THREE_HANDS_2008),
    t.round(THREE_HANDS_2008),
    t.round(THREE_HANDS_2008),
  ];
  return { rounds, events: t.close() };
}

describe('a session across midnight into 2025-11-11 (Macau): each round under its own rule set', () => {
  it('rounds started on 2025-11-10 are f3cp-2008a, those started on 2025-11-11 f3cp-2025; no finding on either side', () => {
    const { events } = sessionOverMidnight();
    const t = given(events).when(replayTable).then([]);
    const byRound = t.replay.rounds.map((r) => [macauDate(r.view.time), r.ruleSet]);
    assert.ok(
      byRound.some(([d, id]) => d === '2025-11-10' && id === 'f3cp-2008a'),
      JSON.stringify(byRound),
    );
    assert.ok(
      byRound.some(([d, id]) => d === '2025-11-11' && id === 'f3cp-2025'),
      JSON.stringify(byRound),
    );
    for (const r of t.replay.rounds) {
      const text = JSON.stringify(r.settlement);
      if (r.ruleSet === 'f3cp-2008a') {
        assert.doesNotMatch(text, /89\/2025/);
        assert.match(text, /78\/2008/);
      } else {
        assert.doesNotMatch(text, /78\/2008/);
        assert.match(text, /89\/2025/);
      }
    }
  });

  it('the explanation of each round names its rule set, diplomas and the reason (its Macau date)', () => {
    const { events } = sessionOverMidnight();
    const table = F3CP_MODULE.newTable('T-01');
    const units = [...events.flatMap((e) => table.apply(e)), ...table.finish().units];
    const texts = units.map((u) => table.explain(u, []).text);
    const old = texts.find((x) => x.includes('Rules: f3cp-2008a'))!;
    const now = texts.find((x) => x.includes('Rules: f3cp-2025 '))!;
    assert.match(old, /Rules: f3cp-2008a \(Despacho 78\/2008 \+ 97\/2008\)/);
    assert.match(
      old,
      /why: the round is dated 2025-11-10 in Macau \(UTC\+8\); f3cp-2008a governs 2008-12-16 to 2025-11-10/,
    );
    assert.match(now, /Rules: f3cp-2025 \(Despacho 89\/2025\)/);
    assert.match(
      now,
      /why: the round is dated 2025-11-11 in Macau \(UTC\+8\); f3cp-2025 governs 2025-11-11 to 2025-11-17/,
    );
  });
});
