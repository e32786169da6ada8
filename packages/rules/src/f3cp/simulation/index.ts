/**
 * How the simulator plays Fortune 3 Card Poker: the clean-round script, the faults as data (faults/, one file per
 * article family), the players, and the simulated table that puts them together for the game-neutral simulator.
 */
import type { GameSimulation } from '../../game.ts';
import { F3CP_CHECKS } from '../checks/index.ts';
import { F3CP_HANDLED_IRREGULARITIES, F3CP_ROUND_FAULTS } from './faults/index.ts';
import { F3cpSimulatedTable } from './table.ts';

export const F3CP_SIMULATION: GameSimulation = {
  roundFaults: F3CP_ROUND_FAULTS.map(({ name, checkIds }) => ({ name, checkIds })),
  handledIrregularities: F3CP_HANDLED_IRREGULARITIES.map((h) => h.name),
  conduct: {
    'betting-system': { name: 'betting-system', checkIds: [F3CP_CHECKS.conductBettingSystem.id] },
    collusion: { name: 'collusion', checkIds: [F3CP_CHECKS.conductCollusion.id] },
  },
  openTable: (spec) => new F3cpSimulatedTable(spec),
};

export { F3CP_HANDLED_IRREGULARITIES, F3CP_ROUND_FAULTS } from './faults/index.ts';
export type { F3cpFault, RoundNeeds } from './fault.ts';
export { PLAYER_KINDS, type Player, type PlayerKind } from './players.ts';
export { EVERY_BET, randomF3cpRound, type F3cpRoundOptions } from './random-round.ts';
export {
  betIdOf,
  playF3cpRound,
  shuffleEvents,
  type F3cpTableState,
  type PlannedBet,
  type PlayedRound,
  type RoundPlan,
  type SeatPlay,
  type ShufflePlan,
} from './script.ts';
export { F3cpSimulatedTable } from './table.ts';
