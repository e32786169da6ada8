import { THIRTEEN_EVENT_TYPES, type ThirteenEvent } from '@table-audit/schemas/events';
import type { GameModule } from '../game.ts';
import { THIRTEEN_CHECKS } from './checks/index.ts';
import { THIRTEEN_SIMULATION } from './sim-events.ts';
import { ThirteenTable, type ThirteenRoundUnit } from './table.ts';
import { thirteenEventProblems } from './validate.ts';

/** 13 Cards: Portaria 51/89/M (rule set thirteen-cards-1989). The unit the law judges is a round. */
export const THIRTEEN_MODULE: GameModule<ThirteenRoundUnit> = {
  game: 'thirteen-cards',
  tableGame: 'THIRTEEN_CARDS',
  title: '13 Cards',
  eventTypes: new Set<string>(THIRTEEN_EVENT_TYPES),
  checks: Object.values(THIRTEEN_CHECKS),
  validate: (event) => thirteenEventProblems(event as ThirteenEvent),
  newTable: (tableId, options) =>
    new ThirteenTable(tableId, options?.alternatives, options?.startStates === true),
  resumeTable: (tableId, startState, options) =>
    new ThirteenTable(tableId, options?.alternatives).resume(startState),
  get simulation() {
    return THIRTEEN_SIMULATION;
  },
};
