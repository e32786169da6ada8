/** Clean 2008 rounds (Despacho 78/2008): Ante, Play and Pair Plus only, dated before 2025-11-11 (Macau). */
import type { F3cpEvent } from '@table-audit/schemas/events';
import { cleanRound, DEFAULT_LIMITS, type RoundSpec, type TableConfig } from './clean-round.ts';

/**
 * Seat 1 a pair of Kings with Ante and Pair Plus (plays, wins), seat 3 seven-high on the Ante alone (folds),
 * seat 5 ace-high (plays, beats the croupier's qualifying Q-J-3). The deal as THREE_HANDS: S1×3 S3×3 S5×3 B×3.
 */
export const THREE_HANDS_2008: RoundSpec = {
  seats: [
    { seat: 1, ante: 10_000, pairPlus: 10_000, cards: 'Kh Kd 4s' },
    { seat: 3, ante: 20_000, cards: '7c 5d 2h', decision: 'FOLD' },
    { seat: 5, ante: 10_000, cards: 'Ac Tc 6d' },
  ],
  banker: 'Qs Jd 3c',
  deck: '3s 2s 4d',
};

/** 2019-06-01 14:00 Macau: rule set f3cp-2008a. */
export const IN_2019 = '2019-06-01T14:00:00+08:00';

/** The posted limits of a 2008 table: Ante, Play and Pair Plus only. */
export const LIMITS_2008 = DEFAULT_LIMITS.filter((l) => ['ANTE', 'PLAY', 'PAIR_PLUS'].includes(l.betType));

/** A 2008 table: no jackpot, 2008 limits, opened in 2019. */
export const TABLE_2008: TableConfig = { jackpot: null, start: IN_2019, betLimits: LIMITS_2008 };

export const threeHands2008 = (table: TableConfig = {}): F3cpEvent[] =>
  cleanRound(THREE_HANDS_2008, { ...TABLE_2008, ...table });
