/**
 * The checks of the 2008 rules (Despacho 78/2008, art. 9.º re-worded by 97/2008), in the order a round's findings
 * are reported. Where a 2008 provision asks the same question as a 2025 one (a bet after the first card, a card
 * seen twice, a payout that differs from the engine's), the 2025 check's logic is run and its finding re-stated
 * under the 2008 check (COUNTERPART_2008): its id, title, severity and citations, with every citation of 89/2025
 * and every J-interpretation dropped. What differs in substance (the bets, the compulsory Play bet, art. 11.º's
 * irregularities) has its own check in the f3cp08-* files.
 */
import type { FindingInput } from '../../findings.ts';
import type { JudgedRound, RoundCheck, SettledRound } from '../round.ts';
import { F3CP_2008_AMENDMENT, F3CP_2008_DIPLOMA } from '../rule-set-2008.ts';
import { checkCardsIntegrity } from './art-02-cards.ts';
import { checkBetLate, checkBetLimits, checkBetOtherHand, checkNoSuchSeat } from './art-04-10-bets.ts';
import { checkDealCount, checkDealFaceUp, checkDealOrder } from './art-11-dealing.ts';
import { checkNonSeatedHandling, checkPlayBeforeDeal, checkPlayNotEqualAnte } from './art-12-playing.ts';
import { checkOutcome, checkPayouts, checkRepeatedSettlements } from './art-13-16-settlement.ts';
import { checkVoidCardsUsed, checkVoidedBets } from './art-17-irregularities.ts';
import { checkEventTimes, checkRoundStarted } from './record.ts';
import { checkBetNotOffered, checkPlayRequired } from './f3cp08-art-05-09-bets.ts';
import { checkNotVoided2008, checkWronglyVoided2008 } from './f3cp08-art-11-irregularities.ts';
import { COUNTERPART_2008 } from './f3cp08-definitions.ts';

export { ALL_F3CP08_CHECK_IDS, COUNTERPART_2008, F3CP08 } from './f3cp08-definitions.ts';

const OWN_DIPLOMAS = new Set([F3CP_2008_DIPLOMA, F3CP_2008_AMENDMENT]);
/** the dealing breaches 78/2008 answers by invalidating the round (art. 11.º 1)): handled when it was voided */
const VOIDING_BREACHES = new Set(['F3CP.DEAL.ORDER', 'F3CP.DEAL.COUNT']);

/**
 * A 2025 finding re-stated under its 2008 counterpart, or null when the 2008 rules have none (the finding is
 * then not raised for a 2008 round). Citations the 2025 check added are kept only when they name 78/2008 or
 * 97/2008 (e.g. a 2008 settlement line's); 2025 interpretations are dropped.
 */
export function as2008(f: FindingInput): FindingInput | null {
  if (f.check.id.startsWith('F3CP08.')) return f;
  const check = COUNTERPART_2008.get(f.check.id);
  if (!check) return null;
  const extraCitations = (f.extraCitations ?? []).filter((c) => OWN_DIPLOMAS.has(c.diploma));
  const extraInterpretations = (f.extraInterpretations ?? []).filter((i) => i.startsWith('H'));
  // 78/2008 voids a round for a broken deal only (art. 11.º 1)); a face-up card lets it go on (11.º 2))
  const handled = f.handled === true && VOIDING_BREACHES.has(f.check.id);
  const out: FindingInput = { ...f, check, extraCitations, extraInterpretations, handled };
  if (handled) out.handledReading = 'H8';
  return out;
}

const translated =
  <R extends JudgedRound>(check: RoundCheck<R>): RoundCheck<R> =>
  (r) =>
    check(r).flatMap((f) => as2008(f) ?? []);

/** Checks of every 2008 round, voided or not, whatever its cards. */
export const PROCEDURE_CHECKS_2008: readonly RoundCheck<JudgedRound>[] = [
  translated(checkRoundStarted),
  translated(checkEventTimes),
  translated(checkCardsIntegrity),
  checkBetNotOffered,
  translated(checkBetLate),
  translated(checkBetLimits),
  translated(checkBetOtherHand),
  translated(checkNoSuchSeat),
  translated(checkPlayNotEqualAnte),
  translated(checkPlayBeforeDeal),
  checkPlayRequired,
  translated(checkDealCount),
  translated(checkDealOrder),
  translated(checkDealFaceUp),
  checkNotVoided2008,
  checkWronglyVoided2008,
  translated(checkVoidCardsUsed),
  translated(checkNonSeatedHandling),
  translated(checkRepeatedSettlements),
  translated(checkVoidedBets),
];

/** Checks of what was declared and paid in a 2008 round, against the engine's 2008 settlement. */
export const SETTLEMENT_CHECKS_2008: readonly RoundCheck<SettledRound>[] = [
  translated(checkPayouts),
  translated(checkOutcome),
];

/** The F3CP08 finding of a check the table fold or the record runs (round closed, late event, shuffle). */
export const findingFor2008 = (f: FindingInput): FindingInput | null => as2008(f);
