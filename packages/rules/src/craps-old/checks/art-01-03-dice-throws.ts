/**
 * Dice and throws: art. 3.º n.º 2 (when a throw is void and settles nothing) and the rule that a die that left the
 * table is used again only after a croupier has checked it against art. 1.º n.º 2 (numbered "4." by the OCR and
 * cited so; interpretation C4 on the numbering).
 */
import type { CrapsBetResolved, DiceThrown } from '@table-audit/schemas/events';
import { defineCheck, evidenceOf, type Evidence, type FindingInput } from '../../findings.ts';
import { CRAPS_CITES } from '../rule-set.ts';

export const diceUncheckedReuse = defineCheck(
  'CRAPS.DICE.UNCHECKED_REUSE',
  'A die that left the table was thrown again without a croupier having checked it',
  'high',
  [CRAPS_CITES.dieReuse],
  ['C4'],
);
export const throwVoidSettled = defineCheck(
  'CRAPS.THROW.VOID_SETTLED',
  'A throw declared void settled bets',
  'high',
  [CRAPS_CITES.throwVoid],
);
export const throwVoidNotDeclared = defineCheck(
  'CRAPS.THROW.VOID_NOT_DECLARED',
  'A throw with a cause of nullity was played as valid',
  'high',
  [CRAPS_CITES.throwVoid],
);

/** Each die of the throw that left the table and has not passed a croupier's check since. */
export function checkDiceReuse(t: DiceThrown, out: ReadonlyMap<string, Evidence>): FindingInput[] {
  return t.dieIds.flatMap((dieId) => {
    const left = out.get(dieId);
    if (!left) return [];
    return [
      {
        check: diceUncheckedReuse,
        discriminator: dieId,
        players: [t.shooterId],
        summary: `die ${dieId} left the table and was thrown again with no croupier's check of it in between`,
        expected: { dieId, checkedBeforeReuse: true },
        declared: { dieId, checkedBeforeReuse: false },
        evidence: [left, evidenceOf(t)],
      },
    ];
  });
}

/** A throw declared void must settle nothing (art. 3.º n.º 2: it is repeated). */
export function checkVoidSettled(t: DiceThrown, resolved: readonly CrapsBetResolved[]): FindingInput | null {
  if (!t.declaredVoid || resolved.length === 0) return null;
  return {
    check: throwVoidSettled,
    players: [t.shooterId],
    summary: `the throw was declared void${t.voidReason ? ` (${t.voidReason})` : ''} yet ${resolved.length} bet(s) were settled on it`,
    expected: { resolved: 0 },
    declared: { resolved: resolved.map((r) => ({ betId: r.betId, outcome: r.outcome, payout: r.payout })) },
    evidence: [evidenceOf(t), ...resolved.map(evidenceOf)],
  };
}

/** A throw with a cause of nullity (a die off the table, short of the middle, not rolling) must be declared void. */
export function checkVoidNotDeclared(t: DiceThrown): FindingInput | null {
  if (t.declaredVoid || t.voidReason === null) return null;
  return {
    check: throwVoidNotDeclared,
    players: [t.shooterId],
    summary: `the throw had a cause of nullity (${t.voidReason}) but was played as valid: it should have been repeated`,
    expected: { declaredVoid: true, voidReason: t.voidReason },
    declared: { declaredVoid: false, faces: t.faces },
    evidence: [evidenceOf(t)],
  };
}
