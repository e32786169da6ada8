import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { prepareReadings } from '@table-audit/replay';
import { bearer, fixture, tablesOfEachConcessionaire, type Fixture } from './fixture.ts';

describe('GET /v1/what-if', () => {
  let f: Fixture;
  let day: string;
  let tableA: string;
  let tableB: string;
  before(async () => {
    f = await fixture({ tables: 8, roundsPerTable: 12 });
    ({ tableA, tableB, day } = await tablesOfEachConcessionaire(f));
  });
  after(() => f.close());
  const get = (url: string, token: string) => f.app.inject({ url, headers: bearer(token) });

  it('an inspector sees the diff across every concessionaire; the readings are named with both texts', async () => {
    const res = await get(`/v1/what-if?readings=J11=ALT&from=${day}&to=${day}`, f.tokens.inspector);
    assert.equal(res.statusCode, 200, res.body);
    const r = res.json();
    assert.ok(r.roundsCompared > 0);
    assert.ok(r.roundsChanged > 0);
    assert.equal(r.readings[0].id, 'J11');
    assert.match(r.readings[0].alternative, /Literal ZH/);
    assert.ok(r.readings[0].articles.some((a: { pt: string | null; zh: string | null }) => a.pt && a.zh));
    assert.ok(r.money.some((m: { linesChanged: number }) => m.linesChanged > 0));
    assert.ok(Number.isInteger(r.money[0].chosenPaidAvos), 'avos, whole numbers');
    const concessionaires = new Set(r.changed.map((c: { concessionaire: string }) => c.concessionaire));
    assert.ok(concessionaires.size > 1);
  });

  it("a compliance officer sees only their concessionaire's tables; another's table or round is 404", async () => {
    const mine = (await get(`/v1/what-if?readings=J11=ALT&from=${day}&to=${day}`, f.tokens.officerA)).json();
    assert.ok(mine.roundsCompared > 0);
    assert.ok(mine.changed.every((c: { concessionaire: string }) => c.concessionaire === f.concessionaireA));
    assert.equal(mine.scope.concessionaire, f.concessionaireA);

    const theirs = await get(
      `/v1/what-if?readings=J11=ALT&from=${day}&to=${day}&table=${tableB}`,
      f.tokens.officerA,
    );
    assert.equal(theirs.statusCode, 404);
    assert.match(theirs.json().message, new RegExp(`no table ${tableB}`));
    const own = await get(
      `/v1/what-if?readings=J11=ALT&from=${day}&to=${day}&table=${tableA}`,
      f.tokens.officerA,
    );
    assert.equal(own.statusCode, 200);
    assert.ok(own.json().changed.every((c: { tableId: string }) => c.tableId === tableA));

    const roundB = (
      await get(`/v1/what-if?readings=J11=ALT&from=${day}&to=${day}&table=${tableB}`, f.tokens.inspector)
    ).json().changed[0]?.roundId as string | undefined;
    if (roundB) {
      assert.equal(
        (await get(`/v1/what-if/rounds/${roundB}?readings=J11=ALT`, f.tokens.officerA)).statusCode,
        404,
      );
      const both = await get(`/v1/what-if/rounds/${roundB}?readings=J11=ALT`, f.tokens.officerB);
      assert.equal(both.statusCode, 200);
      assert.notEqual(both.json().chosen.text, both.json().alternative.text);
    }
    assert.equal(
      (await get(`/v1/what-if?readings=J11=ALT&from=${day}&to=${day}&casino=No%20Such`, f.tokens.inspector))
        .statusCode,
      404,
    );
  });

  it('refuses an unknown or unselectable reading and a period longer than 31 days, naming the field', async () => {
    const bad = await get(`/v1/what-if?readings=J99=ALT&from=${day}&to=${day}`, f.tokens.inspector);
    assert.equal(bad.statusCode, 400);
    assert.match(bad.json().message, /readings item 1 \("J99=ALT"\)/);
    const no = await get(`/v1/what-if?readings=J14=ALT&from=${day}&to=${day}`, f.tokens.inspector);
    assert.equal(no.statusCode, 400);
    assert.match(no.json().message, /not selectable/);
    const long = await get(`/v1/what-if?readings=J2=ALT&from=2025-01-01&to=2025-03-01`, f.tokens.inspector);
    assert.equal(long.statusCode, 400);
    assert.match(long.json().message, /at most 31/);
    assert.equal(
      (await f.app.inject({ url: `/v1/what-if?readings=J2=ALT&from=${day}&to=${day}` })).statusCode,
      401,
    );
  });

  it('exports the report as a PDF naming the readings compared', async () => {
    const res = await get(
      `/v1/what-if?readings=J11=ALT,J2=ALT&from=${day}&to=${day}&format=pdf`,
      f.tokens.inspector,
    );
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-type'], 'application/pdf');
    assert.match(String(res.headers['content-disposition']), /what-if-J11ALT-J2ALT/);
    assert.equal(res.rawPayload.subarray(0, 5).toString(), '%PDF-');
  });

  it('lists every interpretation with whether it can be selected and why not', async () => {
    const list = (await get('/v1/what-if/readings', f.tokens.auditor)).json();
    assert.equal(list.find((x: { id: string }) => x.id === 'J2').status, 'implemented');
    const j14 = list.find((x: { id: string }) => x.id === 'J14');
    assert.equal(j14.status, 'not-implementable');
    assert.ok(j14.reason.length > 20);
    assert.deepEqual(
      list.find((x: { id: string }) => x.id === 'J3').selectable.map((s: { label: string }) => s.label),
      ['J3=ALT', 'J3=ALT2'],
    );
  });
  // last: from here on the store has readings kept ready beside it
  it('answers one reading from the readings kept ready, the same report as derived, within the caller’s scope', async () => {
    const url = `/v1/what-if?readings=J11=ALT&from=${day}&to=${day}`;
    const derived = (await get(url, f.tokens.inspector)).json();
    const officerDerived = (await get(url, f.tokens.officerA)).json();
    assert.equal(derived.source.kind, 'derived');
    await prepareReadings({ storePath: f.path, workers: 1 });
    const kept = (await get(url, f.tokens.inspector)).json();
    const officerKept = (await get(url, f.tokens.officerA)).json();
    assert.equal(kept.source.kind, 'kept');
    assert.equal(officerKept.source.kind, 'kept');
    const same = (r: Record<string, unknown>) => {
      const { source: _s, elapsedMs: _e, workers: _w, ...rest } = r;
      return rest;
    };
    assert.deepEqual(same(kept), same(derived));
    assert.deepEqual(same(officerKept), same(officerDerived));
    assert.ok(officerKept.roundsCompared < kept.roundsCompared, 'the officer’s scope is narrower');
    const both = (
      await get(`/v1/what-if?readings=J11=ALT,J2=ALT&from=${day}&to=${day}`, f.tokens.inspector)
    ).json();
    assert.equal(both.source.kind, 'derived');
  });
});
