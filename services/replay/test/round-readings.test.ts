import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { SqliteEventStore } from '@table-audit/eventstore/sqlite';
import { ALTERNATIVE_READINGS } from '@table-audit/rules';
import { simulateSession } from '@table-audit/simulator';
import { RoundNotFound, RoundNotVerified } from '../src/explain.ts';
import { readingsFor } from '../src/readings-ready.ts';
import { roundReadings, type RoundReadings } from '../src/round-readings.ts';
import { roundReadingsText } from '../src/what-if-text.ts';
import { WhatIfComparer, type ChangedRound } from '../src/what-if-core.ts';
import { raisePayout } from './raise-payout.ts';
import { storeEvents } from './stored-session.ts';

const WHOLE = { from: '2000-01-01', to: '2099-12-31' };
// faults and handled irregularities, so that findings and voided rounds are among what the readings change
const session = simulateSession({
  seed: 7,
  tables: 3,
  roundsPerTable: 30,
  faultRate: 0.1,
  handledRate: 0.05,
});
const keys = readingsFor('F3CP', 'f3cp-2025a');

/** Each reading's changed rounds over the whole session, from the period what-if (in memory), by round id. */
const byReading = new Map<string, Map<string, ChangedRound>>(
  keys.map((k) => {
    const c = new WhatIfComparer(WHOLE, [k], undefined, Number.MAX_SAFE_INTEGER);
    for (const e of session.events) c.apply(e);
    return [k, new Map(c.finish(session.events.length).changed.map((r) => [r.roundId, r]))];
  }),
);

const storeOf = () =>
  storeEvents(join(mkdtempSync(join(tmpdir(), 'ta-round-readings-')), 'events.sqlite'), session.events);

const changedKeys = (x: RoundReadings) => x.readings.filter((r) => r.changed).map((r) => r.reading.key);

describe('the readings a round hinges on (replay ROUND_ID --what-if all)', () => {
  it('names exactly the readings whose period what-if changes the round, with the same bets and status', async () => {
    const path = await storeOf();
    const store = new SqliteEventStore(path, { readOnly: true });
    try {
      const j11 = [...byReading.get('J11')!.keys()];
      const untouched = [...new Set(session.events.map((e) => e.data.header.roundId))].filter(
        (id): id is string => id !== null && keys.every((k) => !byReading.get(k)!.has(id)),
      );
      assert.ok(j11.length >= 3, 'J11 changes some rounds');
      assert.ok(untouched.length >= 2, 'some rounds no reading changes');
      for (const roundId of [...j11.slice(0, 3), ...untouched.slice(0, 2)]) {
        const x = await roundReadings(store, roundId);
        assert.deepEqual(
          x.readings.map((r) => r.reading.key).sort(),
          [...keys].sort(),
          'every selectable reading of the rule set, once',
        );
        assert.deepEqual(
          changedKeys(x).sort(),
          keys.filter((k) => byReading.get(k)!.has(roundId)).sort(),
          roundId,
        );
        for (const r of x.readings) {
          const period = byReading.get(r.reading.key)!.get(roundId);
          if (!r.changed || !period) continue;
          assert.deepEqual(r.changed.lines, period.lines, `${roundId} ${r.reading.key}`);
          assert.equal(r.changed.statusAlternative, period.statusAlternative);
        }
      }
      const none = await roundReadings(store, untouched[0]!);
      assert.deepEqual(changedKeys(none), []);
      assert.match(roundReadingsText(none), /None of the \d+ readings changes this round/);
      const one = await roundReadings(store, j11[0]!);
      const text = roundReadingsText(one);
      assert.match(text, /readings change this round:/);
      assert.match(text, /J11=ALT — /);
      assert.match(text, /Not selectable: J14: /);
    } finally {
      await store.close();
    }
  });

  it('tells how far its two reads have gone, every 5,000 events', async () => {
    const long = simulateSession({ seed: 3, tables: 1, roundsPerTable: 120, faultRate: 0 });
    const path = await storeEvents(
      join(mkdtempSync(join(tmpdir(), 'ta-round-readings-')), 'events.sqlite'),
      long.events,
    );
    const last = long.events.filter((e) => e.data.header.roundId !== null).at(-1)!.data.header.roundId!;
    const store = new SqliteEventStore(path, { readOnly: true });
    try {
      const told: string[] = [];
      const x = await roundReadings(store, last, undefined, undefined, (t) => told.push(t));
      assert.ok(x.eventsRead >= 5_000, `${x.eventsRead} events read`);
      assert.ok(
        told.some((t) => /^finding round .+: 5,000 events read$/.test(t)),
        told.join('\n'),
      );
      assert.ok(
        told.some((t) =>
          new RegExp(`^deriving under ${x.readings.length} readings: 5,000 of [\\d,]+ events$`).test(t),
        ),
        told.join('\n'),
      );
    } finally {
      await store.close();
    }
  });

  it('lists only the readings of the round’s rule set and game', () => {
    assert.ok(keys.includes('J11') && keys.includes('J3:2') && !keys.some((k) => k.startsWith('H')));
    const old = readingsFor('F3CP', 'f3cp-2008a');
    assert.ok(old.includes('H1') && !old.some((k) => k.startsWith('J')));
    const craps = readingsFor('CRAPS', null);
    assert.deepEqual(
      craps,
      ALTERNATIVE_READINGS.filter((a) => a.game === 'craps').map((a) => a.key),
    );
    assert.deepEqual(readingsFor('NO_SUCH_GAME', null), []);
  });

  it('refuses a round whose table’s chain is broken before its answer, and names an unknown round', async () => {
    const path = await storeOf();
    const table = session.tables[0]!.tableId;
    const rounds = [
      ...new Set(
        session.events
          .filter((e) => e.data.header.tableId === table && e.data.header.roundId !== null)
          .map((e) => e.data.header.roundId!),
      ),
    ];
    const edited = raisePayout(path, table, rounds[2]!);
    const store = new SqliteEventStore(path, { readOnly: true });
    try {
      await assert.rejects(roundReadings(store, rounds[10]!), (e: unknown) => {
        assert.ok(e instanceof RoundNotVerified);
        assert.equal(e.broken.revision, edited.revision);
        assert.equal(e.broken.eventId, edited.eventId);
        return true;
      });
      // a round before the edit, whose answer ends before it, is still answered
      assert.ok((await roundReadings(store, rounds[0]!)).readings.length > 0);
      await assert.rejects(roundReadings(store, 'NO-SUCH-ROUND'), RoundNotFound);
      await assert.rejects(
        roundReadings(store, rounds[0]!, undefined, session.tables[1]!.tableId),
        RoundNotFound,
      );
    } finally {
      await store.close();
    }
  });
});
