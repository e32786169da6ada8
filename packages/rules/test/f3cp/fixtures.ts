/** The clean rounds the fault tests start from, with every card named so a test can say which one it moves. */
import type { F3cpEvent, F3cpEvents } from '@table-audit/schemas/events';
import { cleanRound, eventLike, is, type RoundSpec, type TableConfig } from './clean-round.ts';

/**
 * Three hands from the shuffler: seat 1 a pair of Kings (plays, wins), seat 3 seven-high (folds), seat 5 ace-high
 * (plays, beats the banker's Q-J-3, which qualifies).
 * The deal: S1 S1 S1 S3 S3 S3 S5 S5 S5 B B B (dealOrder 1–12).
 */
export const THREE_HANDS: RoundSpec = {
  seats: [
    { seat: 1, ante: 10_000, pairPlus: 10_000, cards: 'Kh Kd 4s' },
    { seat: 3, ante: 20_000, cards: '7c 5d 2h' },
    { seat: 5, ante: 10_000, sixCardBonus: 5_000, cards: 'Ac Tc 6d' },
  ],
  banker: 'Qs Jd 3c',
  deck: '3s 2s 4d',
};

/** The same hands with Progressive bets on seats 1 and 5: then D C C (dealOrder 13–15), community 9h 8d. */
export const WITH_PROGRESSIVE: RoundSpec = {
  ...THREE_HANDS,
  seats: THREE_HANDS.seats.map((s) => (s.seat === 3 ? s : { ...s, progressive: 5_000 })),
  community: '9h 8d',
};

export const threeHands = (table: TableConfig = {}): F3cpEvent[] => cleanRound(THREE_HANDS, table);
export const withProgressive = (table: TableConfig = {}): F3cpEvent[] => cleanRound(WITH_PROGRESSIVE, table);

/** The CardDealt with this deal order. */
export const dealt =
  (n: number) =>
  (e: F3cpEvent): boolean =>
    is('CardDealt', (d) => d.dealOrder === n)(e);

/** A surveillance observation during the round, right after `anchor`. */
export const observation = (
  anchor: { header: F3cpEvents['RoundStarted']['header'] },
  kind: F3cpEvents['SurveillanceObservation']['kind'],
  confidence: number,
  seat = 1,
): F3cpEvent =>
  eventLike(
    anchor,
    'SurveillanceObservation',
    {
      kind,
      seat,
      playerId: `P${seat}`,
      camera: 'CAM-2',
      analyst: 'analyst-07',
      confidence,
      description: 'seen on camera 2',
      inspectorId: null,
      evidence: [],
    },
    { sourceKind: 'SURVEILLANCE', sourceDevice: 'CAM-T-01' },
  );
