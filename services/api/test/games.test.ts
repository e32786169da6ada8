/**
 * Every game through the API, by inject, over one store holding F3CP, CRAPS, 13 Cards and Mah-Jong tables
 * (simulated with labelled faults, ingested and replayed): the disputed round of each game carries what its
 * round page draws (CRAPS the dice, the point and the bets on the layout; 13 Cards each place's tiers beside the
 * solver's best and the banker's; Mah-Jong the walls, the break and who received which tiles), the timeline,
 * whole findings with the PT and ZH text of their articles; a Mah-Jong round and its findings carry the scope note.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CRAPS_MODULE, F3CP_MODULE } from '@table-audit/rules';
import { MAHJONG_MODULE, MAHJONG_SCOPE } from '@table-audit/rules/mahjong';
import { THIRTEEN_MODULE } from '@table-audit/rules/thirteen';
import { bearer, everyOtherGame, fixture, type Fixture } from './fixture.ts';

let f: Fixture;
before(async () => {
  f = await fixture({
    tables: 2,
    roundsPerTable: 5,
    otherGames: everyOtherGame(2),
  });
});
after(() => f.close());

const get = (url: string, token = f.tokens.inspector) => f.app.inject({ url, headers: bearer(token) });

interface FindingItem {
  findingId: string;
  roundId: string | null;
  checkId: string;
  game: string | null;
  scope?: typeof MAHJONG_SCOPE;
}

/** The findings of one game, every page. */
async function findingsOf(game: string): Promise<FindingItem[]> {
  const r = await get(`/v1/findings?game=${game}&limit=200`);
  assert.equal(r.statusCode, 200, r.body);
  return r.json().items as FindingItem[];
}

/** A round of the game with a finding (the first whose derivation `accept`s): its replay as the API serves it. */
async function disputed(game: string, accept: (derivation: Record<string, unknown>) => boolean = () => true) {
  const rounds = [...new Set((await findingsOf(game)).map((x) => x.roundId).filter((id) => id !== null))];
  assert.ok(rounds.length > 0, `the simulated ${game} tables have findings about rounds`);
  for (const roundId of rounds) {
    const r = await get(`/v1/rounds/${encodeURIComponent(roundId)}/replay`);
    assert.equal(r.statusCode, 200, r.body);
    const body = r.json();
    if (!accept(body.derivation)) continue;
    const finding = (await findingsOf(game)).find((x) => x.roundId === roundId)!;
    return { finding, body };
  }
  throw new Error(`no ${game} round with a finding has the derivation the test looks for`);
}

interface Step {
  time: string;
  eventId: string;
  type: string;
  text: string;
}

/** The timeline is in stored order, every step a real time, and the finding's evidence is among its events. */
function assertTimeline(steps: Step[], evidence: readonly string[]) {
  assert.ok(steps.length > 0, 'a timeline');
  for (const s of steps) assert.ok(!Number.isNaN(Date.parse(s.time)), `${s.eventId}: ${s.time}`);
  const times = steps.map((s) => Date.parse(s.time));
  assert.ok(times.length > 0);
  const ids = new Set(steps.map((s) => s.eventId));
  assert.ok(
    evidence.some((id) => ids.has(id)),
    'an event a finding rests on is in the timeline',
  );
}

/**
 * Every citation of every finding has its text among the provisions served: the Portuguese always; the Chinese
 * where it is held (none of 53/2010 or the 1989 portarias is: their ZH is null, and the page says so).
 */
function assertLaw(body: {
  provisions: { key: string; pt: string | null; zh: string | null }[];
  derivation: { findings: { citations: { key: string }[] }[] };
}) {
  const byKey = new Map(body.provisions.map((p) => [p.key, p]));
  assert.ok(body.derivation.findings.length > 0);
  for (const x of body.derivation.findings)
    for (const c of x.citations) {
      const p = byKey.get(c.key);
      assert.ok(p, `${c.key} is among the provisions`);
      assert.ok(p.pt, `${c.key} has its PT text`);
      assert.ok(p.zh === null || p.zh.length > 0, `${c.key}: ZH text or null`);
    }
}

describe('every game in the API', () => {
  it('serves a CRAPS throw with the dice, the point before and after, the bets on the layout and whole findings', async () => {
    const { finding, body } = await disputed('CRAPS');
    assert.equal(body.game, 'CRAPS');
    assert.equal(body.scope, null);
    const d = body.derivation;
    assert.equal(d.throwId, finding.roundId);
    assert.equal(d.faces.length, 2);
    assert.equal(
      d.sum,
      d.faces.reduce((a: number, b: number) => a + b, 0),
    );
    assert.ok('pointBefore' in d && 'pointAfter' in d);
    for (const l of d.lines) {
      assert.ok(Number.isSafeInteger(l.stakeAvos), 'stakes in avos');
      assert.ok(l.citations.length === l.rule.length, `${l.betId}: every article keyed`);
    }
    const stored = d.findings.filter((x: { findingId: string | null }) => x.findingId !== null);
    assert.ok(
      stored.some((x: { findingId: string }) => x.findingId === finding.findingId),
      'the stored finding, with its id (the alert link)',
    );
    assertTimeline(
      d.steps,
      stored.flatMap((x: { evidenceEventIds: string[] }) => x.evidenceEventIds),
    );
    assert.ok(
      d.steps.some((s: Step) => s.type === 'DiceThrown'),
      'the throw itself',
    );
    assertLaw(body);
  });

  it('serves a 13 Cards round with the places’ tiers as played, the solver’s best and the banker’s, points per tier', async () => {
    const { finding, body } = await disputed('THIRTEEN_CARDS', (d) => d['banker'] !== undefined);
    assert.equal(body.game, 'THIRTEEN_CARDS');
    assert.equal(body.scope, null);
    const d = body.derivation;
    assert.equal(d.roundId, finding.roundId);
    assert.equal(d.banker.tiers.front.cards.length, 3);
    assert.equal(d.banker.tiers.back.cards.length, 5);
    assert.equal(d.places.length, 3);
    assert.ok(d.dice.sum >= 4 && d.dice.sum <= 24);
    assert.deepEqual(d.dice.interpretations, ['T3']);
    const played = d.places.filter((p: { tiers: unknown }) => p.tiers !== null);
    assert.ok(played.length > 0, 'places arranged');
    for (const p of played) {
      assert.equal(p.dealt.length, 13);
      assert.ok(p.interpretations.includes('T1'));
      if (p.result?.reason === 'points') assert.equal(p.result.tiers.length, 3, 'points per tier');
      if (p.best) assert.equal(p.best.tiers.middle.cards.length, 5);
    }
    assertTimeline(
      d.steps,
      d.findings.flatMap((x: { evidenceEventIds: string[] }) => x.evidenceEventIds),
    );
    assertLaw(body);
    assert.ok(body.interpretations.some((i: { id: string }) => i.id.startsWith('T')));
  });

  it('serves a Mah-Jong deal with the walls, the dice and break, who received which tiles, and the scope note', async () => {
    const { finding, body } = await disputed('MAHJONG', (d) => d['deal'] !== null);
    assert.equal(body.game, 'MAHJONG');
    assert.deepEqual(body.scope, { ...MAHJONG_SCOPE });
    assert.match(body.scope.message, /out of scope until the rest of the regulation is available/);
    const d = body.derivation;
    assert.equal(d.roundId, finding.roundId);
    assert.deepEqual(d.scope, body.scope);
    assert.equal(d.deal.walls.length, 4);
    for (const w of d.deal.walls) assert.equal(w.stacks.length, 17);
    assert.equal(d.deal.walls.flatMap((w: { stacks: unknown[] }) => w.stacks).length, 68);
    assert.equal(d.deal.dice.faces.length, 3);
    assert.equal(d.deal.break.expectedStack === null, d.deal.dice.sum < 3 || d.deal.dice.sum > 18);
    assert.deepEqual(
      d.deal.hands.map((h: { seat: string }) => h.seat),
      ['E', 'S', 'W', 'N'],
    );
    const drawn = d.deal.turns.reduce((n: number, t: { tiles: string[] }) => n + t.tiles.length, 0);
    assert.equal(
      d.deal.hands.reduce((n: number, h: { count: number }) => n + h.count, 0),
      drawn,
      'every tile drawn is in a hand',
    );
    assertTimeline(
      d.steps,
      d.findings.flatMap((x: { evidenceEventIds: string[] }) => x.evidenceEventIds),
    );
    assertLaw(body);
    assert.match(body.text, /SCOPE: Outcomes are out of scope/);
  });

  it('gives every Mah-Jong finding the scope note, in the list and alone, and no other game’s', async () => {
    const mahjong = await findingsOf('MAHJONG');
    assert.ok(mahjong.length > 0);
    for (const x of mahjong) assert.equal(x.scope?.code, 'outcomes-out-of-scope', x.findingId);
    const one = await get(`/v1/findings/${mahjong[0]!.findingId}`);
    assert.equal(one.json().scope.code, 'outcomes-out-of-scope');
    for (const game of ['F3CP', 'CRAPS', 'THIRTEEN_CARDS'])
      for (const x of await findingsOf(game)) assert.equal(x.scope, undefined, `${game} ${x.findingId}`);
  });

  it('documents the games in the OpenAPI: examples of each, check ids that exist, the scope note', async () => {
    const doc = (await f.app.inject({ url: '/openapi.json' })).json();
    const params = doc.paths['/v1/findings'].get.parameters as {
      name: string;
      examples?: Record<string, { value: string }>;
    }[];
    const examplesOf = (name: string) =>
      Object.values(params.find((p) => p.name === name)!.examples ?? {}).map((e) => e.value);
    assert.deepEqual(examplesOf('game'), ['F3CP', 'CRAPS', 'THIRTEEN_CARDS', 'MAHJONG']);
    const checks = new Set(
      [F3CP_MODULE, CRAPS_MODULE, THIRTEEN_MODULE, MAHJONG_MODULE].flatMap((m) => m.checks.map((c) => c.id)),
    );
    const examples = examplesOf('checkId');
    assert.equal(examples.length, 4);
    for (const id of examples) assert.ok(checks.has(id), `${id} is a check`);
    const replay = JSON.stringify(doc.paths['/v1/rounds/{roundId}/replay']);
    assert.match(replay, /outcomes-out-of-scope/);
    assert.match(replay, /MAHJONG/);
  });

  it('exports each game’s round as evidence, JSON and PDF, the PDF naming the rule set and no F3CP totals it cannot give', async () => {
    for (const [game, accept] of [
      ['CRAPS', () => true],
      ['THIRTEEN_CARDS', (d: Record<string, unknown>) => d['banker'] !== undefined],
      ['MAHJONG', (d: Record<string, unknown>) => d['deal'] !== null],
    ] as const) {
      const { finding } = await disputed(game, accept);
      const url = `/v1/rounds/${encodeURIComponent(finding.roundId!)}/evidence`;
      const json = await get(url);
      assert.equal(json.statusCode, 200, `${game}: ${json.body.slice(0, 300)}`);
      assert.equal(json.json().derivation.game, game);
      const pdf = await get(`${url}?format=pdf`);
      assert.equal(pdf.statusCode, 200, `${game} PDF: ${pdf.body.slice(0, 300)}`);
      assert.equal(pdf.headers['content-type'], 'application/pdf');
    }
  });
});
