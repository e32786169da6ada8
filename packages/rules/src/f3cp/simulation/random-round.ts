/**
 * Settlement facts of random rounds, for the benchmarks and property tests of the engine: every seat bets, plays
 * by the published Q-6-4 strategy, and nothing else of a table is simulated.
 */
import { classifyThree } from '../../poker/three-card.ts';
import { shuffledDeck, type Rng } from '../../rng.ts';
import { Q64 } from '../events.ts';
import type { F3cpRoundFacts, F3cpSeatFacts, JackpotConfig } from '../facts.ts';

export interface F3cpRoundOptions {
  /** number of player seats with bets (5 to 7) */
  readonly seats: number;
  /** chance that a seat also bets each optional bet type */
  readonly pairPlusRate: number;
  readonly sixCardRate: number;
  readonly progressiveRate: number;
  readonly jackpot: JackpotConfig;
  readonly pool: number;
}

const STAKES = [10_000, 20_000, 50_000, 100_000, 200_000]; // MOP 100 .. 2,000

/** One dealt round with bets on every seat, play/fold by Q-6-4; facts only, settlement is the engine's. */
export function randomF3cpRound(r: Rng, o: F3cpRoundOptions): F3cpRoundFacts {
  const deck = shuffledDeck(r);
  let next = 0;
  const seats: F3cpSeatFacts[] = [];
  let anyProgressive = false;
  for (let seat = 1; seat <= o.seats; seat++) {
    const cards = [deck[next++]!, deck[next++]!, deck[next++]!];
    const ante = r.pick(STAKES);
    const progressive = r.next() < o.progressiveRate ? 5_000 : 0;
    anyProgressive ||= progressive > 0;
    const play = classifyThree(cards[0]!, cards[1]!, cards[2]!) >= Q64;
    seats.push({
      seat,
      cards,
      bets: {
        ante,
        ...(play ? { play: ante } : {}),
        ...(r.next() < o.pairPlusRate ? { pairPlus: r.pick(STAKES) } : {}),
        ...(r.next() < o.sixCardRate ? { sixCardBonus: r.pick(STAKES) / 10 } : {}),
        ...(progressive ? { progressive } : {}),
      },
      decision: play ? 'play' : 'fold',
    });
  }
  const banker = [deck[next++]!, deck[next++]!, deck[next++]!];
  const community = anyProgressive ? [deck[next++]!, deck[next++]!] : undefined;
  return {
    seats,
    banker,
    ...(community ? { community, jackpot: { config: o.jackpot, poolBefore: o.pool } } : {}),
  };
}

/** Every bet type on every seat, with a jackpot pool: the heaviest rounds to settle. */
export const EVERY_BET: Omit<F3cpRoundOptions, 'seats'> = {
  pairPlusRate: 1,
  sixCardRate: 1,
  progressiveRate: 1,
  jackpot: {
    fixed: {
      'royal-flush': 5_000_000,
      'straight-flush': 500_000,
      'four-of-a-kind': 100_000,
      'full-house': 20_000,
      flush: 10_000,
    },
    resetAmount: 10_000_000,
    rounding: { unit: 1, mode: 'down' },
  },
  pool: 25_000_000,
};
