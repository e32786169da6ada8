import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TableEvent } from '@table-audit/schemas/events';
// the simulator plays sessions of every game with a simulation part (test only: it depends on this package)
import { simulateSession } from '../../../services/simulator/src/session.ts';
import { DEFAULT_REPLAY_OPTIONS, StartStateError, type GameModule } from '../src/game.ts';
import { MAHJONG_MODULE } from '../src/mahjong/module.ts';
import { MAX_START_STATE_BYTES, startStateAt } from '../src/start-state.ts';
import { THIRTEEN_MODULE } from '../src/thirteen/module.ts';
import { proveResume } from './resume-property.ts';

/**
 * Resuming the shared round fold (13 Cards, the Mah-Jong deal) at a round: proven on simulated sessions with every
 * fault kind and handled irregularities, several seeds, alternative readings, a late event of an earlier round, a
 * table closed and opened again; and every damaged start state refused with what is wrong.
 */
const session = (game: string, seed: number) =>
  simulateSession({ game, seed, tables: 3, roundsPerTable: 25, faultRate: 0.3, handledRate: 0.15 });

const GAMES: [GameModule, string, readonly string[][]][] = [
  [THIRTEEN_MODULE, 'THIRTEEN_CARDS', [[], ['T1', 'T3']]],
  [MAHJONG_MODULE, 'MAHJONG', [[], ['M1', 'M2']]],
];

/** A table's events with a late event of an earlier round during a later one, and the table closed and opened again. */
function withLateEventAndReopen(events: readonly TableEvent[]): TableEvent[] {
  const out = [...events];
  const starts = out.map((e, i) => [e, i] as const).filter(([e]) => e.type === 'RoundStarted');
  const [first] = starts[0]!;
  const [, thirdAt] = starts[2]!;
  // a copy of the first round's last event, arriving after the third round's RoundStarted
  const lastOfFirst = [...out].reverse().find((e) => e.data.header.roundId === first.data.header.roundId)!;
  const late = {
    ...lastOfFirst,
    data: {
      ...lastOfFirst.data,
      header: { ...lastOfFirst.data.header, eventId: `${lastOfFirst.data.header.eventId}-late` },
    },
  } as TableEvent;
  out.splice(thirdAt + 1, 0, late);
  // closed and opened again before the sixth round
  const [, sixthAt] = out.map((e, i) => [e, i] as const).filter(([e]) => e.type === 'RoundStarted')[5]!;
  const opened = out.find((e) => e.type === 'TableOpened')!;
  const closed = out.find((e) => e.type === 'TableClosed')!;
  const h = (e: TableEvent, id: string) =>
    ({ ...e, data: { ...e.data, header: { ...e.data.header, eventId: id, roundId: null } } }) as TableEvent;
  out.splice(sixthAt, 0, h(closed, 'reclose'), h(opened, 'reopen'));
  return out;
}

describe('resuming the round fold at a round (13 Cards, Mah-Jong)', () => {
  for (const [module, game, readings] of GAMES)
    for (const seed of [1, 2])
      it(`${game}, seed ${seed}: every unit resumed from its start state derives and explains as the full fold did`, () => {
        const s = session(game, seed);
        let units = 0;
        for (const alternatives of readings)
          for (const t of s.tables) {
            const proof = proveResume(module, t.tableId, t.events, { alternatives });
            assert.deepEqual(proof.withoutState, [], 'every round has its start state');
            assert.equal(proof.resumed, proof.units);
            units += proof.units;
          }
        assert.ok(units >= 2 * 3 * 25, `${units} units proven`);
      });

  for (const [module, game] of GAMES)
    it(`${game}: a late event of an earlier round, and a table closed and opened again, change no unit`, () => {
      const t = session(game, 3).tables[0]!;
      const events = withLateEventAndReopen(t.events);
      const proof = proveResume(module, t.tableId, events);
      assert.equal(proof.resumed, proof.units);
      // the round fold's state is its last TableOpened: about a kilobyte
      assert.ok(
        Math.max(...proof.bytes) < 2_048,
        `start states of at most ${Math.max(...proof.bytes)} bytes`,
      );
    });

  it('events of a round delivered before its RoundStarted: the state is taken before the first of them', () => {
    const t = session('THIRTEEN_CARDS', 4).tables[0]!;
    const events = [...t.events];
    const starts = events.map((e, i) => [e, i] as const).filter(([e]) => e.type === 'RoundStarted');
    const [r4, at] = starts[3]!;
    const next = events.findIndex((e, i) => i > at && e.data.header.roundId === r4.data.header.roundId);
    const [moved] = events.splice(next, 1);
    events.splice(at, 0, moved!);
    const proof = proveResume(THIRTEEN_MODULE, t.tableId, events);
    assert.equal(proof.resumed, proof.units);
  });

  it('a round id a unit already had gets no start state (its first event is not its own)', () => {
    const t = session('MAHJONG', 5).tables[0]!;
    const events = [...t.events];
    const first = events.find((e) => e.type === 'RoundStarted')!.data.header.roundId!;
    const renamed = events.map((e) => {
      const rid = e.data.header.roundId;
      const second = events.filter((x) => x.type === 'RoundStarted')[1]!.data.header.roundId;
      return rid === second
        ? ({ ...e, data: { ...e.data, header: { ...e.data.header, roundId: first } } } as TableEvent)
        : e;
    });
    const proof = proveResume(MAHJONG_MODULE, t.tableId, renamed);
    assert.deepEqual(proof.withoutState, [first]);
    assert.equal(proof.resumed, proof.units - 1);
  });
});

// a start state as JSON, to damage in one place
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

describe('a start state the round fold cannot resume from', () => {
  const t = session('THIRTEEN_CARDS', 6).tables[0]!;
  const unit = (() => {
    const fold = THIRTEEN_MODULE.newTable(t.tableId, { ...DEFAULT_REPLAY_OPTIONS, startStates: true });
    for (const e of t.events) {
      const u = fold.apply(e)[0];
      if (u?.startState) return u;
    }
    throw new Error('no unit');
  })();
  const state = unit.startState!;
  const refused = (text: string, pattern: RegExp, tableId = t.tableId) =>
    assert.throws(
      () => THIRTEEN_MODULE.resumeTable!(tableId, text, undefined),
      (e: unknown) => e instanceof StartStateError && pattern.test(e.message),
    );
  const edit = (f: (o: Json) => void) => {
    const o = JSON.parse(state) as Json;
    f(o);
    return JSON.stringify(o);
  };

  it('Given a start state, When its place is read without the game, Then it names the round and the event to start at', () => {
    const at = startStateAt(state);
    assert.equal(at.roundId, unit.roundId);
    assert.equal(at.game, 'THIRTEEN_CARDS');
    assert.equal(at.tableId, t.tableId);
    assert.equal(
      t.events.find((e) => e.data.header.roundId === unit.roundId)!.data.header.eventId,
      at.before,
    );
    assert.throws(
      () => startStateAt('{'),
      (e: unknown) => e instanceof StartStateError && /not JSON/.test(e.message),
    );
  });
  it('Given damaged JSON, When resumed, Then it is refused as not JSON', () =>
    refused(state.slice(0, -3), /not JSON/));
  it("Given another game's state, When resumed, Then it names the game", () => {
    refused(
      edit((o) => (o.game = 'MAHJONG')),
      /MAHJONG table, not of a THIRTEEN_CARDS table/,
    );
    assert.throws(
      () => MAHJONG_MODULE.resumeTable!(t.tableId, state),
      /THIRTEEN_CARDS table, not of a MAHJONG/,
    );
  });
  it('Given another form version, When resumed, Then it names the version', () =>
    refused(
      edit((o) => (o.v = 2)),
      /version 2 of form "round-fold"; this version reads version 1 only/,
    ));
  it("Given another table's state, When resumed, Then it names the table", () =>
    refused(state, /of table .*, not of table OTHER/, 'OTHER'));
  it('Given a field missing or out of range, When resumed, Then it names the field', () => {
    refused(
      edit((o) => delete o.body.opened),
      /body has no field "opened"/,
    );
    refused(
      edit((o) => (o.body.opened.thirteenCards.commissionPercent = 150)),
      /body\.opened\.thirteenCards\.commissionPercent is 150, outside 0 to 100/,
    );
    refused(
      edit((o) => (o.body.opened.header.eventTime = 'soon')),
      /body\.opened\.header\.eventTime is "soon", not a whole number/,
    );
    refused(
      edit((o) => delete o.before),
      /has no field "before"/,
    );
  });
  it('Given a state over 64 KiB, When resumed, Then it is refused before it is parsed', () =>
    refused(`${state.slice(0, -1)},"pad":"${'x'.repeat(MAX_START_STATE_BYTES)}"}`, /over the 65536 bytes/));
  it('Given a resumed fold, When its first event is not the one the state was taken before, Then it says which', () => {
    const fold = THIRTEEN_MODULE.resumeTable!(t.tableId, state);
    const wrong = t.events.find((e) => e.data.header.eventId !== JSON.parse(state).before)!;
    assert.throws(
      () => fold.apply(wrong),
      (e: unknown) => e instanceof StartStateError && /must be given first event/.test(e.message),
    );
  });
});
