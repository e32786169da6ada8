import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { readingsFor } from '@table-audit/replay';
import { bearer, fixture, tablesOfEachConcessionaire, type Fixture } from './fixture.ts';

interface Answer {
  roundId: string;
  concessionaire: string;
  ruleSetId: string;
  readings: { reading: { key: string }; changed: { lines: unknown[] } | null }[];
}

describe('GET /v1/what-if/rounds/{roundId}/readings', () => {
  let f: Fixture;
  let day: string;
  let tableB: string;
  before(async () => {
    f = await fixture({ tables: 8, roundsPerTable: 12 });
    ({ tableB, day } = await tablesOfEachConcessionaire(f));
  });
  after(() => f.close());
  const get = (url: string, token: string) => f.app.inject({ url, headers: bearer(token) });

  it('names the readings that change a round, with the bets the period what-if changes; scoped; 503 while busy', async () => {
    const period = await get(
      `/v1/what-if?readings=J11=ALT&from=${day}&to=${day}&table=${tableB}`,
      f.tokens.inspector,
    );
    assert.equal(period.statusCode, 200, period.body);
    const changed = period.json().changed[0] as { roundId: string; lines: unknown[] };
    assert.ok(changed, 'J11 changes a round of the table that day');

    const res = await get(`/v1/what-if/rounds/${changed.roundId}/readings`, f.tokens.inspector);
    assert.equal(res.statusCode, 200, res.body);
    const x = res.json() as Answer;
    assert.equal(x.roundId, changed.roundId);
    assert.deepEqual(x.readings.map((r) => r.reading.key).sort(), readingsFor('F3CP', x.ruleSetId).sort());
    const j11 = x.readings.find((r) => r.reading.key === 'J11')!;
    assert.ok(j11.changed, 'J11 changes it');
    assert.deepEqual(j11.changed.lines, changed.lines);
    assert.equal(x.readings[0]!.changed !== null, true, 'the readings that change it come first');

    // another concessionaire's officer: as if it did not exist; its own officer sees it
    assert.equal(
      (await get(`/v1/what-if/rounds/${changed.roundId}/readings`, f.tokens.officerA)).statusCode,
      404,
    );
    assert.equal(
      (await get(`/v1/what-if/rounds/${changed.roundId}/readings`, f.tokens.officerB)).json().concessionaire,
      f.concessionaireB,
    );
    assert.equal((await get(`/v1/what-if/rounds/NO-SUCH/readings`, f.tokens.inspector)).statusCode, 404);

    // one derivation at a time: of requests arriving together, those that find one going are told to come back
    const together = await Promise.all(
      [1, 2, 3].map(() => get(`/v1/what-if/rounds/${changed.roundId}/readings`, f.tokens.inspector)),
    );
    const codes = together.map((r) => r.statusCode).sort();
    assert.equal(codes[0], 200, 'one is derived');
    assert.ok(codes.includes(503), `one is refused while it is: ${codes.join(', ')}`);
    for (const r of together.filter((t) => t.statusCode === 503)) assert.equal(r.headers['retry-after'], '5');
  });
});
