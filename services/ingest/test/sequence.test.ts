// The per-source sequence check on its own: Given events observed, Then what it counts, and which pairs it forgets.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { SequenceTracker } from '../src/sequence.ts';

describe('SequenceTracker: bounded to the most recently seen table/source pairs', () => {
  test('Given 3 pairs and room for 2, Then the least recently seen is forgotten and starts again unchecked', () => {
    const t = new SequenceTracker(2, 8);
    t.observe('T1', 'a', 1, 'T1-a-1', 'w');
    t.observe('T1', 'b', 1, 'T1-b-1', 'w');
    t.observe('T1', 'a', 2, 'T1-a-2', 'w'); // a seen after b: b is now the least recent
    t.observe('T2', 'a', 1, 'T2-a-1', 'w'); // a third pair: b is forgotten
    // b starts again: a number far below its last is not a step backwards, it is the first seen
    assert.equal(t.observe('T1', 'b', 0, 'T1-b-0', 'w'), null);
    // re-adding b forgot the least recent of the other two, T1/a (seen before T2/a): T2/a is still followed
    const gap = t.observe('T2', 'a', 3, 'T2-a-3', 'w');
    assert.equal(gap?.kind, 'gap');
    // and T1/a starts again: a number far below its last is not a step backwards
    assert.equal(t.observe('T1', 'a', 0, 'T1-a-0', 'w'), null);
    assert.deepEqual(
      {
        gaps: t.summary.gaps,
        missing: t.summary.missing,
        repeats: t.summary.repeats,
        backwards: t.summary.backwards,
      },
      { gaps: 1, missing: 1, repeats: 0, backwards: 0 },
    );
  });

  test('Given 8 pairs and room for 8, When a 9th comes, Then the 2 least recently seen (a quarter) are forgotten, the rest still followed', () => {
    const t = new SequenceTracker(8, 8);
    for (let p = 0; p < 8; p++) t.observe('T', `s${p}`, 10, `T-s${p}-10`, 'w');
    t.observe('T', 's0', 11, 'T-s0-11', 'w'); // s0 seen again: s1 and s2 are now the least recent
    t.observe('T', 's8', 1, 'T-s8-1', 'w'); // a 9th pair: s1 and s2 are forgotten
    // forgotten: a step backwards is not seen, the pair starts again (s1 comes back as the 8th pair)
    assert.equal(t.observe('T', 's1', 1, 'T-s1-1', 'w'), null);
    // still followed: s3 and s0 see their step backwards
    assert.equal(t.observe('T', 's3', 1, 'T-s3-1', 'w')?.kind, 'backwards');
    assert.equal(t.observe('T', 's0', 2, 'T-s0-2', 'w')?.kind, 'backwards');
    // s2 comes back as a 9th pair: the 2 least recently seen now, s4 and s5, are forgotten; s6 is still followed
    assert.equal(t.observe('T', 's2', 1, 'T-s2-1', 'w'), null);
    assert.equal(t.observe('T', 's4', 1, 'T-s4-1', 'w'), null);
    assert.equal(t.observe('T', 's6', 1, 'T-s6-1', 'w')?.kind, 'backwards');
  });

  test('Given 200,000 pairs each seen once, past a bound of 1,000, Then the most recent pair is still followed and the first forgotten', () => {
    // each new pair past the bound must not cost a scan of every pair (a stream of ever new sources is input)
    const t = new SequenceTracker(1_000, 4);
    for (let p = 0; p < 200_000; p++) assert.equal(t.observe(`T${p % 50}`, `s${p}`, 1, `id-${p}`, 'w'), null);
    // the most recent pair is followed: its repeat under another id is seen
    assert.equal(t.observe('T49', 's199999', 1, 'other', 'w')?.kind, 'repeat');
    // the first one was forgotten long ago: it starts again
    assert.equal(t.observe('T0', 's0', 0, 'id-0-again', 'w'), null);
  });

  test('Given the same pair interleaved with others, Then each pair is followed on its own, and a redelivery is not counted', () => {
    const t = new SequenceTracker();
    const where = (n: number) => `record ${n}`;
    assert.equal(t.observe('T1', 'a', 1, 'x1', where, 1), null);
    assert.equal(t.observe('T1', 'b', 7, 'y7', where, 2), null);
    assert.equal(t.observe('T1', 'a', 2, 'x2', where, 3), null);
    assert.equal(t.observe('T1', 'a', 1, 'x1', where, 4), null); // the same event again
    const repeat = t.observe('T1', 'a', 2, 'x2-other', where, 5);
    assert.deepEqual(repeat && { kind: repeat.kind, previous: repeat.previous, where: repeat.where }, {
      kind: 'repeat',
      previous: 2,
      where: 'record 5',
    });
    const back = t.observe('T1', 'b', 3, 'y3', where, 6);
    assert.deepEqual(back && { kind: back.kind, where: back.where }, {
      kind: 'backwards',
      where: 'record 6',
    });
    assert.equal(t.summary.first.length, 2);
  });
});
