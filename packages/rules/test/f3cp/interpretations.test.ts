import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { F3CP_CHECKS } from '../../src/f3cp/checks/index.ts';
import { F3CP_2025, F3CP_2025A } from '../../src/f3cp/rule-set.ts';
import { HANDLED_INTERPRETATION } from '../../src/findings.ts';
import { INTERPRETATIONS } from '../../src/interpretations.ts';
import { cleanRound, TableBuilder } from './clean-round.ts';
import { replayTable } from './spec.ts';

const REGISTER = new Set(INTERPRETATIONS.map((i) => i.id));
const src = join(dirname(fileURLToPath(import.meta.url)), '../../src');

describe('every interpretation a check or a settlement line can carry is in the register', () => {
  it('the check definitions, the handled-breach reading and the rule sets', () => {
    const ids = [
      ...Object.values(F3CP_CHECKS).flatMap((c) => c.interpretations),
      HANDLED_INTERPRETATION,
      ...F3CP_2025.interpretations,
      ...F3CP_2025A.interpretations,
    ];
    assert.deepEqual(
      ids.filter((id) => !REGISTER.has(id)),
      [],
    );
  });

  it('every interpretation id written in the F3CP sources (extra interpretations of findings, settlement lines)', () => {
    // every source file of the module, at any depth (settle/, math/, checks/ …)
    const files = [
      ...readdirSync(join(src, 'f3cp'), { recursive: true, encoding: 'utf8' })
        .filter((f) => f.endsWith('.ts'))
        .map((f) => join(src, 'f3cp', f)),
      join(src, 'findings.ts'),
    ];
    const ids = new Set(
      files.flatMap((f) => [...readFileSync(f, 'utf8').matchAll(/'(J\d+)'/g)].map((m) => m[1]!)),
    );
    assert.ok(ids.size >= 15, `found ${ids.size} ids: the scan reads the sources`);
    assert.deepEqual(
      [...ids].filter((id) => !REGISTER.has(id)),
      [],
    );
  });

  it('the interpretations of the lines, settlements and findings of replayed rounds', () => {
    const t = new TableBuilder({ start: '2025-11-12T14:00:00+08:00' });
    t.round({
      seats: [
        { seat: 1, ante: 10_000, pairPlus: 10_000, progressive: 5_000, cards: 'As Ks Qs' }, // Royal, ante bonus
        { seat: 2, ante: 10_000, pairPlus: 10_000, cards: '7c 5d 2h' }, // fold with Pair Plus (J1)
        { seat: 3, ante: 10_000, progressive: 5_000, cards: '9s 8s 7s' }, // Straight Flush paid first (J10)
        { seat: 4, ante: 10_000, cards: 'Qd Jc 3c' }, // ties the banker (J2)
      ],
      banker: 'Qh Jd 3h',
      community: 'Js Ts',
    });
    const replay = replayTable([...t.close(), ...cleanRound({ seats: [{ seat: 1, ante: 10_000 }] })]);
    const settlement = replay.rounds[0]!.settlement!;
    const ids = new Set([
      ...settlement.interpretations,
      ...settlement.lines.flatMap((l) => l.interpretations),
      ...settlement.jackpot!.payments.flatMap((p) => p.interpretations),
      ...replay.findings.flatMap((f) => f.interpretations),
    ]);
    for (const expected of ['J1', 'J2', 'J3', 'J4', 'J5', 'J6', 'J10'])
      assert.ok(ids.has(expected), expected);
    assert.deepEqual(
      [...ids].filter((id) => !REGISTER.has(id)),
      [],
    );
  });
});
