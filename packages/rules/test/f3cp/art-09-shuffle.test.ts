import { describe, it } from 'node:test';
import { change } from './clean-round.ts';
import { threeHands } from './fixtures.ts';
import { given, onlyFinding, replayTable } from './spec.ts';

describe('art. 9.º: the shuffle', () => {
  it('art. 9.º n.º 2: a manual shuffle completed without a cut with the cut card → SHUFFLE.PROCEDURE', () => {
    const events = change(
      threeHands({ shuffleMode: 'MANUAL' }),
      'ShuffleCompleted',
      () => true,
      (d) => Object.assign(d, { cutCardUsed: false, cutBy: 'NONE' }),
    );
    const t = given(events)
      .when(replayTable)
      .then(['F3CP.SHUFFLE.PROCEDURE'])
      .positive('F3CP.SHUFFLE.PROCEDURE');
    // the finding belongs to the round dealt from that shuffle
    onlyFinding(t, 'F3CP.SHUFFLE.PROCEDURE');
  });

  it('art. 9.º n.º 3: a cut card used with the automatic shuffler → SHUFFLE.PROCEDURE', () => {
    const events = change(
      threeHands(),
      'ShuffleCompleted',
      () => true,
      (d) => (d.cutCardUsed = true),
    );
    given(events).when(replayTable).then(['F3CP.SHUFFLE.PROCEDURE']).positive('F3CP.SHUFFLE.PROCEDURE');
  });

  it('art. 9.º n.º 2: a manual shuffle cut by the player at seat 3 with the cut card → nothing', () => {
    const events = change(
      threeHands({ shuffleMode: 'MANUAL' }),
      'ShuffleCompleted',
      () => true,
      (d) => Object.assign(d, { cutCardUsed: true, cutBy: 'PLAYER', cutBySeat: 3 }),
    );
    given(events).when(replayTable).then([]).negative('F3CP.SHUFFLE.PROCEDURE');
  });

  it('art. 9.º n.º 3: the automatic shuffler without a cut card → nothing', () => {
    given(threeHands()).when(replayTable).then([]).negative('F3CP.SHUFFLE.PROCEDURE');
  });
});
