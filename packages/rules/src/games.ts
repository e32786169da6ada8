import { CRAPS_MODULE } from './craps/module.ts';
import { F3CP_MODULE } from './f3cp/module.ts';
import type { GameModule } from './game.ts';
import { MAHJONG_MODULE } from './mahjong/module.ts';
import { THIRTEEN_MODULE } from './thirteen/module.ts';

/** Every game module, by the symbol a table declares in TableOpened.game. */
export const GAME_MODULES: readonly GameModule[] = [
  F3CP_MODULE,
  CRAPS_MODULE,
  THIRTEEN_MODULE,
  MAHJONG_MODULE,
];

const BY_TABLE_GAME = new Map(GAME_MODULES.map((m) => [m.tableGame, m]));

/** The module of the game a table declares, or null when the pipeline knows no such game. */
export const gameModuleFor = (tableGame: string): GameModule | null => BY_TABLE_GAME.get(tableGame) ?? null;

/** Every check id of every game. */
export const ALL_CHECK_IDS: readonly string[] = GAME_MODULES.flatMap((m) => m.checks.map((c) => c.id));
