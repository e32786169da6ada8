/**
 * Every CRAPS start state a fold writes over fixed simulated sessions, digested: the guard of speed work on the
 * start-state capture (start-state-digest.test.ts holds the digest recorded before the capture was made cheaper;
 * the text of every throw's start state must stay byte for byte what it was). Prints the digest and the counts:
 *   node --import ./apps/cli/bin/register-ts.mjs packages/rules/test/craps/start-state-digest.ts
 *
 * The sessions: three seeds with every fault kind and handled irregularities, under the register's readings and
 * alternative ones (C1; C2 with C5), each table's events as the simulator made them and as the store reads them
 * back (every object's keys sorted, which changes the order of the JSON written for the TableOpened and for a
 * bet's header), a copy in which some bets' headers differ from the TableOpened's (another device, a received
 * time, another staff member), so that a bet's list carries its other header fields, a copy without the
 * TableOpened (no configuration: each bet carries its whole header) and a copy in which some throws are named by
 * a settlement before their DiceThrown (no start state). The counts say how often
 * each part of a state was not empty, so that a digest over states that never carry a part cannot pass unnoticed.
 */
import { createHash } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import type { TableEvent } from '@table-audit/schemas/events';
// the simulator plays sessions of every game with a simulation part (test only: it depends on this package)
import { simulateSession } from '../../../../services/simulator/src/session.ts';
import { CRAPS_MODULE } from '../../src/craps/module.ts';
import { DEFAULT_REPLAY_OPTIONS } from '../../src/game.ts';
import { asStored } from '../resume-property.ts';

export interface StartStateDigest {
  /** throws returned by the folds */
  throws: number;
  /** throws with a start state (the others have null) */
  states: number;
  /** bytes of every state, summed */
  bytes: number;
  /** states with a bet on the layout, a bet whose header differs from the TableOpened's, a pending finding, a die
   * out of play, a seven-out waiting for a new shooter, the point on, no TableOpened yet */
  withBets: number;
  withOtherHeader: number;
  withPending: number;
  withDiceOut: number;
  withSevenOut: number;
  withPoint: number;
  withoutConfig: number;
  /** sha256 of every state's text (null as "null"), one a line, in the order the folds returned the throws */
  sha256: string;
}

/** Some bets' headers made to differ from the TableOpened's (every seventh bet; three kinds of difference). */
function otherHeaders(events: readonly TableEvent[]): TableEvent[] {
  let bet = 0;
  return events.map((e) => {
    if (e.type !== 'CrapsBetPlaced' || bet++ % 7 !== 0) return e;
    const h = e.data.header;
    const header =
      bet % 3 === 0
        ? { ...h, sourceDevice: `${h.sourceDevice}-B` }
        : bet % 3 === 1
          ? { ...h, receivedTime: h.eventTime + 250 }
          : { ...h, staffId: 'another-croupier', sourceKind: 'SURVEILLANCE' as const };
    return { ...e, data: { ...e.data, header } } as TableEvent;
  });
}

/**
 * A bet's settlement moved before its throw's DiceThrown, at every tenth throw that settled one: that throw is
 * named by an event before its DiceThrown and has no start state (null).
 */
function earlyResolution(events: readonly TableEvent[]): TableEvent[] {
  const out = [...events];
  let throws = 0;
  for (let i = 0; i < out.length; i++) {
    const e = out[i]!;
    if (e.type !== 'DiceThrown' || throws++ % 10 !== 0) continue;
    const at = out.findIndex(
      (x, j) => j > i && x.type === 'CrapsBetResolved' && x.data.header.roundId === e.data.header.roundId,
    );
    if (at < 0) continue;
    const [early] = out.splice(at, 1);
    out.splice(i, 0, early!);
    i++;
  }
  return out;
}

export function crapsStartStateDigest(): StartStateDigest {
  const hash = createHash('sha256');
  const d: Omit<StartStateDigest, 'sha256'> = {
    throws: 0,
    states: 0,
    bytes: 0,
    withBets: 0,
    withOtherHeader: 0,
    withPending: 0,
    withDiceOut: 0,
    withSevenOut: 0,
    withPoint: 0,
    withoutConfig: 0,
  };
  for (const seed of [1, 2, 3]) {
    const session = simulateSession({
      game: 'CRAPS',
      seed,
      tables: 3,
      roundsPerTable: 60,
      faultRate: 0.3,
      handledRate: 0.15,
    });
    for (const alternatives of [[], ['C1'], ['C2', 'C5']])
      for (const t of session.tables)
        for (const events of [
          t.events,
          asStored(t.events),
          otherHeaders(t.events),
          t.events.filter((e) => e.type !== 'TableOpened'),
          earlyResolution(t.events),
        ]) {
          const fold = CRAPS_MODULE.newTable(t.tableId, {
            ...DEFAULT_REPLAY_OPTIONS,
            alternatives,
            startStates: true,
          });
          const units = events.flatMap((e) => fold.apply(e));
          units.push(...fold.finish().units);
          for (const u of units) {
            d.throws++;
            const text = u.startState ?? null;
            hash.update(`${text}\n`);
            if (text === null) continue;
            d.states++;
            d.bytes += Buffer.byteLength(text);
            const b = (JSON.parse(text) as { body: Record<string, unknown> }).body as {
              bets: unknown[][];
              pending: unknown[];
              diceOut: unknown[];
              sevenOut: unknown;
              point: unknown;
              config: unknown;
            };
            if (b.bets.length) d.withBets++;
            if (b.bets.some((x) => x[10] !== null)) d.withOtherHeader++;
            if (b.pending.length) d.withPending++;
            if (b.diceOut.length) d.withDiceOut++;
            if (b.sevenOut !== null) d.withSevenOut++;
            if (b.point !== null) d.withPoint++;
            if (b.config === null) d.withoutConfig++;
          }
        }
  }
  return { ...d, sha256: hash.digest('hex') };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href)
  console.log(JSON.stringify(crapsStartStateDigest(), null, 1));
