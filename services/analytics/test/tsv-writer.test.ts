// TsvWriter (tsv.ts): the projector's bets written straight into bytes must be the UTF-8 of the strings tsvValue
// spells (betsTsv, whose equality with encodeTsv tsv.test.ts holds, is written with it).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TsvWriter, tsvValue } from '../src/tsv.ts';

describe('TabSeparated written as bytes (TsvWriter)', () => {
  it('writes the UTF-8 of what tsvValue spells, for ASCII, escapes and other characters, growing as it goes', () => {
    const values: [string, unknown][] = [
      ['casino', 'Casino Lisboa'],
      ['casino', '澳門 Grand Lisboa — Mesa 7'],
      ['dealer_id', 'a\tb\\c\nd\re\0f'],
      ['dealer_id', 'ção\t🂡\n'],
      ['dealer_id', 'lone \ud800 surrogate'],
      ['dealer_id', null],
      ['stake_avos', 123_456_789],
      ['difference_avos', -50],
      ['round_start', Date.UTC(2025, 11, 1, 4, 5, 6, 7)],
      ['finding_ids', ['F-1', "it's", '門\\']],
      ['reopened', true],
      ['position', 42n],
    ];
    const w = new TsvWriter(16);
    let expected = '';
    for (let round = 0; round < 50; round++)
      for (const [column, v] of values) {
        w.value(column, v);
        w.byte(9);
        expected += `${tsvValue(column, v)}\t`;
      }
    assert.ok(w.bytes().equals(Buffer.from(expected, 'utf8')), 'the same bytes');
    // (a lone surrogate is written as UTF-8 writes it: U+FFFD, as Buffer.from gives for the string)
    const asText = Buffer.from(expected, 'utf8').toString('utf8');
    assert.ok(w.toString() === asText, 'the same text');
    const from = w.length;
    w.raw('x\n');
    w.repeat(from, w.length);
    assert.ok(w.toString() === `${asText}x\nx\n`, 'the prefix repeated');
  });
});
