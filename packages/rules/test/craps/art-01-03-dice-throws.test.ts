import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CrapsScript, given, only } from './spec.ts';

describe('art. 1.º and 3.º: dice and void throws', () => {
  it('art. 3.º n.º 2: a throw short of the middle declared void settles nothing, the bets stay → nothing', () => {
    const s = new CrapsScript().open();
    const b = s.bet('P1', 'PASS_LINE', 5_000);
    const f = s.bet('P2', 'FIELD', 5_000);
    s.throw([3, 4], { voidReason: 'NOT_PAST_MIDDLE', declaredVoid: true });
    s.throw([5, 6]).settle(b, 'WIN', 5_000).settle(f, 'WIN', 5_000).close();
    const r = given(s).then([]);
    assert.equal(r.units[0]!.record!.status, 'VOIDED');
    assert.equal(r.units[0]!.record!.lines.length, 0);
  });

  it('art. 3.º n.º 2: a void throw on which the Field was paid → THROW.VOID_SETTLED', () => {
    const s = new CrapsScript().open();
    s.bet('P1', 'PASS_LINE', 5_000);
    const f = s.bet('P2', 'FIELD', 5_000);
    s.throw([5, 6], { voidReason: 'NOT_PAST_MIDDLE', declaredVoid: true }).settle(f, 'WIN', 5_000).close();
    const x = only(given(s).then(['CRAPS.THROW.VOID_SETTLED']), 'CRAPS.THROW.VOID_SETTLED');
    assert.ok(x.citations.some((c) => c.key === '53/2010 art.3 n.2'));
  });

  it('art. 3.º n.º 2 3): dice thrown without rolling, played as valid → THROW.VOID_NOT_DECLARED', () => {
    const s = new CrapsScript().open();
    const b = s.bet('P1', 'PASS_LINE', 5_000);
    s.throw([5, 6], { voidReason: 'NOT_ROLLING' }).settle(b, 'WIN', 5_000).close();
    given(s).then(['CRAPS.THROW.VOID_NOT_DECLARED']);
  });

  it('art. 3.º n.º 2: a valid throw with no cause of nullity → nothing', () => {
    const s = new CrapsScript().open();
    const b = s.bet('P1', 'PASS_LINE', 5_000);
    s.throw([5, 6]).settle(b, 'WIN', 5_000).close();
    given(s).then([]);
  });

  it('art. 3.º n.º 4 (as the OCR numbers it, C4): a die off the table thrown again unchecked → DICE.UNCHECKED_REUSE', () => {
    const s = new CrapsScript().open();
    const b = s.bet('P1', 'PASS_LINE', 5_000);
    s.throw([3, 4], { voidReason: 'DIE_LEFT_TABLE', declaredVoid: true, dice: ['D1', 'D2'] });
    s.emit('DieLeftTable', { dieId: 'D2' });
    s.throw([3, 4], { dice: ['D2', 'D3'] })
      .settle(b, 'WIN', 5_000)
      .close();
    const f = only(given(s).then(['CRAPS.DICE.UNCHECKED_REUSE']), 'CRAPS.DICE.UNCHECKED_REUSE');
    assert.deepEqual(f.interpretations, ['C4']);
    assert.equal(f.roundId, 'T-2');
  });

  it('art. 3.º n.º 4: the die checked by a croupier first, or a check it failed and another die used → nothing', () => {
    const s = new CrapsScript().open();
    const b = s.bet('P1', 'PASS_LINE', 5_000);
    s.throw([3, 4], { voidReason: 'DIE_LEFT_TABLE', declaredVoid: true });
    s.emit('DieLeftTable', { dieId: 'D2' });
    s.emit('DieChecked', { dieId: 'D2', passed: true });
    s.emit('DieLeftTable', { dieId: 'D5' });
    s.emit('DieChecked', { dieId: 'D5', passed: false });
    s.throw([3, 4], { dice: ['D2', 'D3'] })
      .settle(b, 'WIN', 5_000)
      .close();
    given(s).then([]);
  });

  it('art. 3.º n.º 4: a die that failed its check thrown anyway → DICE.UNCHECKED_REUSE', () => {
    const s = new CrapsScript().open();
    const b = s.bet('P1', 'PASS_LINE', 5_000);
    s.emit('DieLeftTable', { dieId: 'D5' });
    s.emit('DieChecked', { dieId: 'D5', passed: false });
    s.throw([3, 4], { dice: ['D5', 'D3'] })
      .settle(b, 'WIN', 5_000)
      .close();
    given(s).then(['CRAPS.DICE.UNCHECKED_REUSE']);
  });
});
