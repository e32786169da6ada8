import assert from 'node:assert/strict';
import { it } from 'node:test';
import { labelledSessionDigest } from './findings-digest.ts';

/**
 * The correctness guard of speed work on the replay: the labelled session (every fault kind, handled
 * irregularities, a doubling bettor, colluders) replayed through the pure folds must find exactly what it found
 * when this digest was recorded, before the fold, derivation and checks were optimised. A change that means to
 * find something else records a new digest, in its own commit, saying why.
 */
const RECORDED = {
  events: 658776,
  rounds: 11340,
  findings: 1402,
  notDerived: 434,
  idsAndSummariesSha256: '9cf5e30967f5030adbe15ffecfebeeeaf9ec43eeaf2854b60fe35caf441ba31f',
  inReplayOrderSha256: 'c9c93eab982682c88cf8b08ef26136b543ac679afdfe37d85e4837bd6f872fa6',
  wholeFindingsSha256: '58864605b4a34308629cb22b92ef32953c68ffba565571235238a931db38b3e2',
  // added (recorded at 85b260f, before the fourth pass on the pure replay): the round records, in replay order
  roundRecordsSha256: 'e2d7d509056d472048fb3cfbef80cb9d59dbc089cc6249f935f13ca3766ebd3b',
};

it('the labelled session replays to the findings recorded before the replay was optimised', () => {
  assert.deepEqual(labelledSessionDigest().digest, RECORDED);
});
