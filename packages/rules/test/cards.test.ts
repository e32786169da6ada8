import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CardError, duplicateCards, formatCard, fullDeck, parseCard, rankOf, suitOf } from '../src/cards.ts';

describe('cards', () => {
  it('parses and formats every card of the deck both ways', () => {
    const texts = fullDeck().map(formatCard);
    assert.equal(new Set(texts).size, 52);
    for (const c of fullDeck()) assert.equal(parseCard(formatCard(c)), c);
    assert.equal(parseCard('10h'), parseCard('Th'));
    assert.equal(parseCard('as'), parseCard('As'));
    assert.equal(rankOf(parseCard('As')), 12);
    assert.equal(suitOf(parseCard('As')), 3);
  });

  it('rejects what is not a card with a message that says what a card looks like', () => {
    for (const bad of ['', 'X', '1h', 'Ax', 'Qhh', '11s']) {
      assert.throws(
        () => parseCard(bad),
        (e: Error) => e instanceof CardError && /expected a rank .* followed by a suit/.test(e.message),
        bad,
      );
    }
    assert.throws(() => formatCard(52), CardError);
  });

  it('finds cards dealt twice', () => {
    assert.deepEqual(duplicateCards([1, 2, 3, 2, 1, 2]).sort(), [1, 2]);
    assert.deepEqual(duplicateCards([1, 2, 3]), []);
  });
});
