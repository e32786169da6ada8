/** The CRAPS checks of Despacho 53/2010, one file per article family; this file only lists them. */
import type { CheckDefinition } from '../../findings.ts';
import { diceUncheckedReuse, throwVoidNotDeclared, throwVoidSettled } from './art-01-03-dice-throws.ts';
import { shooterNoMinBet, shooterNotChanged, shooterWronglyChanged } from './art-02-04-shooter.ts';
import {
  betComeBeforePoint,
  betNotAuthorised,
  betNotMultipleOfMin,
  betOddsWithoutLine,
} from './art-05-07-bets.ts';
import { payoutMismatch } from './art-06-payouts.ts';

export const CRAPS_CHECKS = {
  payoutMismatch,
  throwVoidSettled,
  throwVoidNotDeclared,
  diceUncheckedReuse,
  shooterNotChanged,
  shooterWronglyChanged,
  shooterNoMinBet,
  betComeBeforePoint,
  betNotMultipleOfMin,
  betNotAuthorised,
  betOddsWithoutLine,
} as const satisfies Record<string, CheckDefinition>;

export const ALL_CRAPS_CHECK_IDS: readonly string[] = Object.values(CRAPS_CHECKS).map((c) => c.id);
