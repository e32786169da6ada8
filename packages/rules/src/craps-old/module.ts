import { CRAPS_EVENT_TYPES, type CrapsEvent } from '@table-audit/schemas/events';
import type { GameModule } from '../game.ts';
import { CRAPS_CHECKS } from './checks/index.ts';
import { CRAPS_SIMULATION } from './simulation.ts';
import { CrapsTable, type CrapsThrowUnit } from './table.ts';
import { crapsEventProblems } from './validate.ts';

/** CRAPS: Despacho 53/2010 (rule set craps-2010). The unit the law judges is a throw. */
export const CRAPS_MODULE: GameModule<CrapsThrowUnit> = {
  game: 'craps',
  tableGame: 'CRAPS',
  title: 'CRAPS',
  eventTypes: new Set<string>(CRAPS_EVENT_TYPES),
  checks: Object.values(CRAPS_CHECKS),
  validate: (event) => crapsEventProblems(event as CrapsEvent),
  newTable: (tableId, options) =>
    new CrapsTable(tableId, options?.alternatives, options?.startStates === true),
  resumeTable: (tableId, startState, options) =>
    new CrapsTable(tableId, options?.alternatives).resume(startState),
  get simulation() {
    return CRAPS_SIMULATION;
  },
};
