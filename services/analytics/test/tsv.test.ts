import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { encodeTsv, msToSeconds, tsvValue } from '../src/tsv.ts';

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
  it('writes time columns (UTC ms) as exact decimal seconds', () => {
    assert.equal(msToSeconds(1764561600123), '1764561600.123');
    assert.equal(msToSeconds(5), '0.005');
    assert.equal(msToSeconds(-1500), '-1.500');
    assert.equal(tsvValue('event_time', 1764561600007), '1764561600.007');
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
