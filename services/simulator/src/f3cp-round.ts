import {
  classifyThree,
  type F3cpRoundFacts,
  type F3cpSeatFacts,
  type JackpotConfig,
} from '@table-audit/rules';
import { shuffledDeck, type Rng } from './rng.ts';

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

export const DEFAULT_JACKPOT: JackpotConfig = {
  fixed: {
    'royal-flush': 5_000_000,
    'straight-flush': 500_000,
    'four-of-a-kind': 100_000,
    'full-house': 20_000,
    flush: 10_000,
  },
  resetAmount: 10_000_000,
  rounding: { unit: 1, mode: 'down' },
};

/** Q-6-4 as classifyThree encodes it (high card, ranks Q=10, 6=4, 4=2): any higher code is a better hand. */
const Q64 = 10 * 256 + 4 * 16 + 2;

const STAKES = [10_000, 20_000, 50_000, 100_000, 200_000]; // MOP 100 .. 2,000

/**
 * One dealt round with bets on every seat, play/fold by the published Q-6-4 strategy (a realistic player),
 * facts only: settlement is left to the rules engine.
 */
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

export const EVERY_BET: Omit<F3cpRoundOptions, 'seats'> = {
  pairPlusRate: 1,
  sixCardRate: 1,
  progressiveRate: 1,
  jackpot: DEFAULT_JACKPOT,
  pool: 25_000_000,
};
