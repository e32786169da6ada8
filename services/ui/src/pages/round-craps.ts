/**
 * A CRAPS throw as an inspector pictures it (Despacho n.º 53/2010): the dice as thrown, the point before and
 * after the throw, every bet on the layout with what the rules give beside what the table declared (MOP), and
 * the articles each line rests on.
 */
import type { CrapsExplanation } from '@table-audit/rules';
import { html, type Html } from '../html.ts';
import { mop } from '../layout.ts';

/** The throw as the API serves it: the rules' CrapsExplanation, made whole by the API (services/api explanations.ts). */
export type CrapsDerivation = Partial<
  Omit<CrapsExplanation, 'lines'> & {
    pointAfter: number | null;
    lines: (CrapsExplanation['lines'][number] & { citations?: { key: string; reference: string }[] })[];
  }
>;

const DIE = ['', '⚀', '⚁', '⚂', '⚃', '⚄', '⚅'];

function die(face: number): Html {
  const ok = Number.isInteger(face) && face >= 1 && face <= 6;
  return html`<span class="die" role="img" aria-label="${ok ? `a die showing ${face}` : `face ${face}`}"
    >${ok ? DIE[face] : String(face)}<small>${String(face)}</small></span
  >`;
}

/** The puck: ON with the point, or OFF (come-out). */
const puck = (point: number | null | undefined, label: string, testId: string): Html =>
  html`<div class="puck-box">
    <h3>${label}</h3>
    <span class="puck ${point ? 'on' : 'off'}" data-testid="${testId}">${point ? `ON ${point}` : 'OFF'}</span>
  </div>`;

/** How the rules and the table resolved one bet, as words: "WIN, pays MOP 10.00". */
const said = (outcome: string | null, payout: number | null): string =>
  outcome === null
    ? 'nothing declared'
    : outcome === 'STAYS'
      ? 'stays on the layout'
      : `${outcome}${outcome === 'WIN' && payout !== null ? `, pays ${mop(payout)}` : ''}`;

export function crapsTable(d: CrapsDerivation): Html {
  const lines = d.lines ?? [];
  const faces = d.faces ?? [];
  // a bet that stays on the layout is declared nothing; one resolved must be declared so, a win with its payout
  const differs = (l: (typeof lines)[number]) =>
    l.expected.startsWith('NOT JUDGED')
      ? false
      : l.expected === 'STAYS'
        ? l.declared !== null
        : l.declared !== l.expected ||
          (l.expected === 'WIN' && (l.declaredPayoutAvos ?? null) !== l.expectedPayoutAvos);
  // the layout: the bets grouped by where they lie on the felt
  const spots = new Map<string, typeof lines>();
  for (const l of lines) spots.set(l.bet, [...(spots.get(l.bet) ?? []), l]);
  return html`<section aria-labelledby="table-heading">
      <h2 id="table-heading">The throw</h2>
      <div class="felt craps" data-testid="table">
        <div class="dealer-side">
          ${puck(d.pointBefore, 'Point before the throw', 'point-before')}
          <div class="dice" data-testid="dice">
            <h3>Dice</h3>
            ${faces.map(die)}
            <p>
              = ${String(d.sum ?? '?')}, thrown by
              ${d.shooter ?? 'nobody named'}${
                d.void?.declared ? ' — declared void' : ''
              }${d.void?.reason ? ` (cause seen: ${d.void.reason})` : ''}
            </p>
          </div>
          ${puck(d.pointAfter, 'Point after', 'point-after')}
        </div>
        <ol class="seats layout" data-testid="layout">
          ${[...spots].map(
            ([bet, ls]) =>
              html`<li class="seat spot">
                <h3>${bet}</h3>
                <ul class="bets">
                  ${ls.map(
                    (l) =>
                      html`<li${differs(l) ? html` class="differs"` : ''}>
                        <span class="chip">${mop(l.stakeAvos)}</span> ${l.betId}: ${l.expected.startsWith('NOT JUDGED') ? 'not judged' : l.expected}
                      </li>`,
                  )}
                </ul>
              </li>`,
          )}
        </ol>
        ${lines.length === 0 ? html`<p>No bet was on the layout at this throw.</p>` : ''}
      </div>
      <p class="note">
        Rule set
        ${d.ruleSet ?? 'none'}${d.notDerived ? html` — <strong>not derived</strong>: ${d.notDerived}` : ''}.
        The point moves as Despacho n.º 53/2010 art. 4.º says: a come-out roll of 4, 5, 6, 8, 9 or 10 sets it;
        the point or a 7 ends it; a throw declared void moves nothing (art. 3.º n.º 2).
      </p>
    </section>
    <section aria-labelledby="settlement-heading">
      <h2 id="settlement-heading">Each bet: the rules beside the table (MOP)</h2>
      <table class="list settlement" data-testid="settlement">
        <caption>
          Every bet on the layout at the throw, how the rules resolve it and how the table declared it
        </caption>
        <thead>
          <tr>
            <th scope="col">Bet</th>
            <th scope="col">Kind</th>
            <th scope="col">Stake</th>
            <th scope="col">Expected (the rules)</th>
            <th scope="col">Declared (the table)</th>
            <th scope="col">Agrees</th>
            <th scope="col">Articles</th>
          </tr>
        </thead>
        <tbody>
          ${lines.map(
            (l) =>
              html`<tr${differs(l) ? html` class="differs"` : ''}>
                <th scope="row">${l.betId}</th>
                <td>${l.bet}</td>
                <td class="num">${mop(l.stakeAvos)}</td>
                <td>${l.expected.startsWith('NOT JUDGED') ? l.expected : said(l.expected, l.expectedPayoutAvos)}</td>
                <td>${said(l.declared, l.declaredPayoutAvos)}</td>
                <td>${l.expected.startsWith('NOT JUDGED') ? '—' : differs(l) ? html`<strong>no</strong>` : 'yes'}</td>
                <td class="basis"><small>${l.rule.join('; ')}</small></td>
              </tr>`,
          )}
        </tbody>
      </table>
    </section>`;
}
