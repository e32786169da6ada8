/**
 * Every fault the simulator can inject into a Fortune 3 Card Poker round, by article family, each with the check
 * ids of the 2025 rules that must find it; and the irregularities a table handles correctly (negative controls).
 */
import type { F3cpFault } from '../fault.ts';
import { CARDS_FAULTS } from './art-02-cards.ts';
import { BETS_FAULTS } from './art-04-10-bets.ts';
import { SHUFFLE_FAULTS } from './art-09-shuffle.ts';
import { DEALING_FAULTS } from './art-11-dealing.ts';
import { PLAYING_FAULTS } from './art-12-playing.ts';
import { SETTLEMENT_FAULTS } from './art-13-16-settlement.ts';
import { JACKPOT_FAULTS } from './art-15-jackpot.ts';
import { HANDLED_IRREGULARITIES, IRREGULARITY_FAULTS } from './art-17-irregularities.ts';
import { CONDUCT_FAULTS } from './art-18-conduct.ts';
import { RECORD_FAULTS } from './record.ts';

export const F3CP_ROUND_FAULTS: readonly F3cpFault[] = [
  ...CARDS_FAULTS,
  ...BETS_FAULTS,
  ...SHUFFLE_FAULTS,
  ...DEALING_FAULTS,
  ...PLAYING_FAULTS,
  ...SETTLEMENT_FAULTS,
  ...JACKPOT_FAULTS,
  ...IRREGULARITY_FAULTS,
  ...CONDUCT_FAULTS,
  ...RECORD_FAULTS,
];

export const F3CP_HANDLED_IRREGULARITIES: readonly F3cpFault[] = HANDLED_IRREGULARITIES;
