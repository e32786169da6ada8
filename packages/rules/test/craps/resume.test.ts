import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TableEvent } from '@table-audit/schemas/events';
// the simulator plays sessions of every game with a simulation part (test only: it depends on this package)
import { simulateSession } from '../../../../services/simulator/src/session.ts';
import { CRAPS_MODULE } from '../../src/craps/module.ts';
import { DEFAULT_REPLAY_OPTIONS, StartStateError } from '../../src/game.ts';
import { MAX_START_STATE_BYTES } from '../../src/start-state.ts';
import { proveResume } from '../resume-property.ts';

/**
 * Resuming the CRAPS table fold at a throw (Despacho 53/2010): for every throw of simulated sessions with every
 * fault kind and handled irregularities, under the register's readings and alternative ones (C1 changes who must
 * pass the dice, C2 the Horn's pay), the fold resumed from the throw's start state — the layout's working bets, the
 * point, the shooter — derives and explains it as the full fold did. A throw named by an event before its
 * DiceThrown has no start state (null). Damaged start states are refused with what is wrong.
 */
const session = (seed: number) =>
  simulateSession({ game: 'CRAPS', seed, tables: 3, roundsPerTable: 40, faultRate: 0.3, handledRate: 0.15 });

// a start state as JSON, to read or damage in one place
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

describe('resuming the CRAPS table fold at a throw', () => {
  for (const seed of [1, 2])
    it(`seed ${seed}: every throw resumed from its start state derives and explains as the full fold did`, () => {
      const s = session(seed);
      let units = 0;
      let carried = 0;
      for (const alternatives of [[], ['C1'], ['C2', 'C5']])
        for (const t of s.tables) {
          const proof = proveResume(CRAPS_MODULE, t.tableId, t.events, { alternatives });
          assert.deepEqual(proof.withoutState, []);
          assert.equal(proof.resumed, proof.units);
          assert.ok(
            Math.max(...proof.bytes) < 16_384,
            `start states of at most ${Math.max(...proof.bytes)} bytes`,
          );
          units += proof.units;
          carried += proof.bytes.length;
        }
      assert.ok(units >= 3 * 3 * 40 && carried === units, `${units} throws proven`);
    });

  it('a throw named by an event before its DiceThrown has no start state; the others resume', () => {
    const t = session(3).tables[0]!;
    const events = [...t.events];
    const throws = events.filter((e) => e.type === 'DiceThrown');
    const at = events.indexOf(throws[10]!);
    const resolvedAt = events.findIndex(
      (e, i) =>
        i > at && e.type === 'CrapsBetResolved' && e.data.header.roundId === throws[10]!.data.header.roundId,
    );
    assert.ok(resolvedAt > at, 'the throw resolved a bet');
    const [early] = events.splice(resolvedAt, 1);
    events.splice(at, 0, early!);
    const proof = proveResume(CRAPS_MODULE, t.tableId, events);
    assert.deepEqual(proof.withoutState, [throws[10]!.data.header.roundId]);
    assert.equal(proof.resumed, proof.units - 1);
  });

  it('the layout carried across throws is in the start state: bets placed throws before, with their points', () => {
    const t = session(4).tables[0]!;
    const fold = CRAPS_MODULE.newTable(t.tableId, { ...DEFAULT_REPLAY_OPTIONS, startStates: true });
    const states = t.events
      .flatMap((e: TableEvent) => fold.apply(e))
      .map((u) => JSON.parse(u.startState!) as Json);
    assert.ok(
      states.some((s) => s.body.bets.some((b: Json) => b.point !== null)),
      'a bet travels on a point',
    );
    assert.ok(
      states.some((s) => s.body.point !== null),
      'a throw made with the point on',
    );
  });
});

describe('a CRAPS start state the fold cannot resume from', () => {
  const t = session(5).tables[0]!;
  const fold = CRAPS_MODULE.newTable(t.tableId, { ...DEFAULT_REPLAY_OPTIONS, startStates: true });
  const state = t.events.flatMap((e: TableEvent) => fold.apply(e))[8]!.startState!;
  const refused = (text: string, pattern: RegExp, options = DEFAULT_REPLAY_OPTIONS) =>
    assert.throws(
      () => CRAPS_MODULE.resumeTable!(t.tableId, text, options),
      (e: unknown) => e instanceof StartStateError && pattern.test(e.message),
    );
  const edit = (f: (o: Json) => void) => {
    const o = JSON.parse(state) as Json;
    f(o);
    return JSON.stringify(o);
  };

  it('Given damaged JSON, When resumed, Then it is refused as not JSON', () =>
    refused(state.slice(1), /not JSON/));
  it("Given an F3CP table's state, When resumed, Then it names the form", () =>
    refused(
      edit((o) => (o.form = 'f3cp-table')),
      /form "f3cp-table", not "craps-table"/,
    ));
  it('Given another version, When resumed, Then it names the version', () =>
    refused(
      edit((o) => (o.v = '1')),
      /version "1" of form "craps-table"/,
    ));
  it('Given a field missing or out of range, When resumed, Then it names the field', () => {
    refused(
      edit((o) => (o.body.point = 7)),
      /body\.point is 7, not a point number \(4, 5, 6, 8, 9, 10\) or null/,
    );
    refused(
      edit((o) => delete o.body.bets),
      /body has no field "bets"/,
    );
    refused(
      edit((o) => (o.body.bets[0][8] = 'at noon')),
      /body\.bets\[0\] header\.eventTime is "at noon", not a whole number/,
    );
    refused(
      edit((o) => o.body.bets[0].pop()),
      /body\.bets\[0\] is a list, not a list of 13 \(betId, playerId/,
    );
    refused(
      edit((o) => (o.body.config.craps.minimumBet = -5)),
      /body\.config\.craps\.minimumBet is -5, outside 0/,
    );
  });
  it('Given a state taken under the register, When resumed under C1, Then it says to fold from the start', () =>
    refused(state, /asked for \[C1\]/, { ...DEFAULT_REPLAY_OPTIONS, alternatives: ['C1'] }));
  it('Given a state over 64 KiB, When resumed, Then it is refused before it is parsed', () =>
    refused('x'.repeat(MAX_START_STATE_BYTES + 1), /over the 65536 bytes/));
});
