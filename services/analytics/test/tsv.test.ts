import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RecordedEvent } from '@table-audit/eventstore';
import { replayEvents, ROUND_EVENT_TYPE } from '@table-audit/replay';
import type { RoundDerived } from '@table-audit/schemas';
import { roundStream } from '@table-audit/schemas/streams';
import { simulateSession } from '@table-audit/simulator';
import { BET_COLUMNS, betsTsv, roundRows } from '../src/rows.ts';
import { recordedEvent } from '../src/testing.ts';
import { encodeTsv, msToDateTime, tsvValue } from '../src/tsv.ts';

describe('TabSeparated rows', () => {
  it('escapes what TabSeparated reads as separators and writes NULL as \\N', () => {
    assert.equal(tsvValue('summary', 'a\tb\nc\\d\re'), 'a\\tb\\nc\\\\d\\re');
    assert.equal(tsvValue('dealer_id', null), '\\N');
    assert.equal(tsvValue('handled', false), 'false');
    assert.equal(tsvValue('stake_avos', -1250), '-1250');
  });
  it('writes arrays as literals with quoted, escaped strings', () => {
    assert.equal(tsvValue('players', ["O'Neil", 'a\\b']), "['O\\\\'Neil','a\\\\\\\\b']");
    assert.equal(tsvValue('seats', [1, 2]), '[1,2]');
    assert.equal(tsvValue('players', []), '[]');
  });
  it('writes time columns (UTC ms) as exact UTC text, early and late times included', () => {
    assert.equal(msToDateTime(1764561600123), '2025-12-01 04:00:00.123');
    assert.equal(msToDateTime(0), '1970-01-01 00:00:00.000');
    assert.equal(msToDateTime(5), '1970-01-01 00:00:00.005');
    assert.equal(msToDateTime(86_399_999), '1970-01-01 23:59:59.999');
    assert.equal(msToDateTime(-1500), '1969-12-31 23:59:58.500');
    // outside DateTime64's range: saturated as ClickHouse saturates, never a value it cannot read
    assert.equal(msToDateTime(8.7e15), '2299-12-31 23:59:59.999');
    assert.equal(msToDateTime(-8.7e15), '1900-01-01 00:00:00.000');
    assert.equal(tsvValue('event_time', 1764561600007), '2025-12-01 04:00:00.007');
    assert.equal(tsvValue('round_number', 1764561600007), '1764561600007');
  });
  it('one line per row, columns in the first row’s order', () => {
    const { columns, body } = encodeTsv([
      { a: 'x', b: 1 },
      { b: 2, a: 'y' },
    ]);
    assert.deepEqual(columns, ['a', 'b']);
    assert.equal(body, 'x\t1\ny\t2\n');
    assert.throws(() => tsvValue('details', { a: 1 }), /column details: a object/);
  });
});

describe('bets written straight to TabSeparated (betsTsv)', () => {
  const recorded = (data: RoundDerived, position: bigint): RecordedEvent =>
    recordedEvent(roundStream(data.tableId), ROUND_EVENT_TYPE, `rec-${data.roundId}`, data, position);

  it('is the text encodeTsv gives for roundRows’ bet rows, for every round of a simulated session', () => {
    const session = simulateSession({
      seed: 4,
      tables: 3,
      roundsPerTable: 25,
      faultRate: 0.3,
      handledRate: 0.1,
    });
    const rounds = replayEvents(session.events).rounds.flatMap((r) => (r.record ? [r.record] : []));
    assert.ok(rounds.length > 50 && rounds.some((r) => r.lines.some((l) => l.differenceAvos !== 0)));
    let lines = 0;
    for (const [i, r] of rounds.entries()) {
      const e = recorded(r, BigInt(1_000 + i));
      const rows = roundRows(e, r).bets;
      if (rows.length) assert.deepEqual(Object.keys(rows[0]!), [...BET_COLUMNS]);
      assert.equal(betsTsv(e, r), rows.length ? encodeTsv(rows).body : '', r.roundId);
      lines += rows.length;
    }
    assert.ok(lines > 500, `${lines} bet lines compared`);
  });

  it('escapes and writes NULL the same way for text a record may carry', () => {
    const [r] = replayEvents(
      simulateSession({ seed: 5, tables: 1, roundsPerTable: 3 }).events,
    ).rounds.flatMap((x) => (x.record ? [x.record] : []));
    const odd: RoundDerived = {
      ...r!,
      roundId: 'R\t1\\x',
      dealerId: null,
      casino: 'Casino\nLisboa',
      lines: r!.lines.map((l, i) => ({ ...l, betId: i % 2 ? null : `b'${i}\r`, declaredPayoutAvos: null })),
    };
    const e = recorded(odd, 7n);
    assert.equal(betsTsv(e, odd), encodeTsv(roundRows(e, odd).bets).body);
    assert.match(betsTsv(e, odd), /^R\\t1\\\\x\t/);
  });
});
