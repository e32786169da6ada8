/**
 * How the simulator plays Fortune 3 Card Poker: the clean-round script, the faults as data (faults/, one file per
 * article family), the players, and the simulated table that puts them together for the game-neutral simulator.
 */
import type { GameSimulation } from '../../game.ts';
import type { F3cpFault } from './fault.ts';
import { F3CP_CHECKS } from '../checks/index.ts';
import { F3CP_HANDLED_IRREGULARITIES, F3CP_ROUND_FAULTS } from './faults/index.ts';
import { F3cpSimulatedTable } from './table.ts';
import { F3CP08_HANDLED_IRREGULARITIES, F3CP08_ROUND_FAULTS } from './faults/f3cp08.ts';
import { ruleSetFor } from '../../registry.ts';

const labels = (faults: readonly F3cpFault[]) => faults.map(({ name, checkIds }) => ({ name, checkIds }));

export const F3CP_SIMULATION: GameSimulation = {
  roundFaults: F3CP_ROUND_FAULTS.map(({ name, checkIds }) => ({ name, checkIds })),
  handledIrregularities: F3CP_HANDLED_IRREGULARITIES.map((h) => h.name),
  conduct: {
    'betting-system': { name: 'betting-system', checkIds: [F3CP_CHECKS.conductBettingSystem.id] },
    collusion: { name: 'collusion', checkIds: [F3CP_CHECKS.conductCollusion.id] },
  },
  catalogueAt: (time) => {
    const lookup = ruleSetFor('f3cp', time);
    return lookup.status === 'implemented' && lookup.rules.era === '2008'
      ? {
          roundFaults: labels(F3CP08_ROUND_FAULTS),
          // a '-kept' irregularity sets up the fault after it (a shuffler kept after a malfunction): never alone
          handledIrregularities: F3CP08_HANDLED_IRREGULARITIES.filter((h) => !h.name.endsWith('-kept')).map(
            (h) => h.name,
          ),
        }
      : {
          roundFaults: labels(F3CP_ROUND_FAULTS),
          handledIrregularities: labels(F3CP_HANDLED_IRREGULARITIES).map((h) => h.name),
        };
  },
  openTable: (spec) => new F3cpSimulatedTable(spec),
};

export { F3CP_HANDLED_IRREGULARITIES, F3CP_ROUND_FAULTS } from './faults/index.ts';
export { F3CP08_HANDLED_IRREGULARITIES, F3CP08_ROUND_FAULTS } from './faults/f3cp08.ts';
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
