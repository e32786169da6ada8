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
