/**
 * A 13 Cards round as an inspector pictures it (Portaria n.º 51/89/M): the dice and the place that received the
 * first card, the banker's three tiers, each place's three tiers as played with the formation of each, the
 * points per tier and the result against the banker, the solver's best legal arrangement beside it, and each bet
 * expected beside declared (MOP), with the interpretations every part depends on.
 */
import { html, type Html } from '../html.ts';
import { mop } from '../layout.ts';
import { cards } from './round-parts.ts';

interface Tier {
  cards: string[];
  formation: string;
}
interface Tiers {
  front: Tier;
  middle: Tier;
  back: Tier;
}
interface TierResult {
  tier: number;
  winner: 'place' | 'banker';
  points: number;
  bankerByEquality: boolean;
}

/** The round as the API serves it (packages/rules/src/thirteen/explain.ts), each part optional. */
export interface ThirteenDerivation {
  ruleSet?: string | null;
  notDerived?: { code: string; message: string } | null;
  payout?: { units: string; commissionBase: string; commissionPercent: number };
  dice?: {
    sum: number;
    shaker: string | null;
    firstPlace: number;
    placeOrder: number[];
    interpretations: string[];
  };
  banker?: { arrangement: string; tiers: Tiers; foul: boolean; natural: string | null; shown: number } | null;
  bankerDealt?: string[];
  places?: {
    place: number;
    holder: string | null;
    dealt: string[];
    played: string | null;
    tiers: Tiers | null;
    foul: boolean | null;
    natural: string | null;
    late: boolean | null;
    result: {
      outcome: string;
      reason: string;
      placePoints: number;
      bankerPoints: number;
      tiers: TierResult[];
    } | null;
    best: { arrangement: string; margin: number; tiers: Tiers; playedMargin: number | null } | null;
    interpretations: string[];
  }[];
  bets?: {
    betId: string;
    playerId: string;
    place: number;
    amount: number;
    units: number;
    expected: { outcome: string; atRisk: number; commission: number; net: number };
    declared: { outcome: string; net: number } | null;
    interpretations: string[];
  }[];
  notSettled?: string[];
}

const PLACE = (n: number) => (n === 0 ? 'the banker' : `place ${n}`);
const TIER_NAMES = ['Front (3 cards)', 'Middle (5 cards)', 'Back (5 cards)'] as const;

/** Three tiers, one above the other, each with its formation; points per tier when the result gives them. */
function tierStack(t: Tiers, results: readonly TierResult[] | null, testId: string): Html {
  return html`<table class="tiers" data-testid="${testId}">
    <tbody>
      ${[t.front, t.middle, t.back].map((tier, i) => {
        const r = results?.find((x) => x.tier === i);
        return html`<tr>
          <th scope="row">${TIER_NAMES[i]}</th>
          <td>${cards(tier.cards)}</td>
          <td>${tier.formation}</td>
          ${
            results
              ? html`<td class="points">
                  ${r ? html`${r.winner === 'place' ? 'place' : 'banker'} +${r.points}${r.bankerByEquality ? ' (equal: the banker’s, art. 10.º)' : ''}` : '—'}
                </td>`
              : ''
          }
        </tr>`;
      })}
    </tbody>
  </table>`;
}

export function thirteenTable(d: ThirteenDerivation): Html {
  const places = d.places ?? [];
  const bets = d.bets ?? [];
  return html`<section aria-labelledby="table-heading">
      <h2 id="table-heading">The table</h2>
      ${d.notDerived ? html`<p class="error" role="status">Not derived (${d.notDerived.code}): ${d.notDerived.message}</p>` : ''}
      <div class="felt thirteen" data-testid="table">
        <div class="dealer-side">
          <div class="banker" data-testid="banker">
            <h3>
              The
              banker${d.banker && d.banker.shown > 1 ? ` (re-arranged: shown ${d.banker.shown} times)` : ''}
            </h3>
            ${
              d.banker
                ? html`${tierStack(d.banker.tiers, null, 'banker-tiers')}
                    <p>
                      ${d.banker.foul ? html`<strong>foul</strong> (art. 7.º)` : 'rises'}${d.banker.natural ? `, natural: ${d.banker.natural}` : ''}
                    </p>`
                : html`<p>no arrangement recorded</p>`
            }
          </div>
          ${
            d.dice
              ? html`<div class="dice" data-testid="dice">
                  <h3>Dice</h3>
                  <p>
                    Sum ${d.dice.sum}${d.dice.shaker ? `, shaken by ${d.dice.shaker}` : ''}: the first card to
                    ${PLACE(d.dice.firstPlace)}; then ${d.dice.placeOrder.slice(1).map(PLACE).join(', ')}
                    (art. 2.º b), interpretation ${d.dice.interpretations.join(', ')})
                  </p>
                </div>`
              : ''
          }
        </div>
        <ol class="seats places">
          ${places.map(
            (p) =>
              html`<li class="seat place" data-testid="place-${p.place}">
                <h3>Place ${p.place}${p.holder ? html` <small>held by ${p.holder}</small>` : ''}</h3>
                <div class="arrangements">
                  <div>
                    <h4>As played</h4>
                    ${p.tiers ? tierStack(p.tiers, p.result?.tiers.length ? p.result.tiers : null, `played-${p.place}`) : html`<p>${p.played ?? 'no arrangement of 3, 5 and 5 cards recorded'}</p>`}
                    <p class="result" data-testid="result-${p.place}">
                      ${
                        p.result
                          ? html`<strong>${p.result.outcome}</strong> (${p.result.reason}): place
                              ${p.result.placePoints} points, banker ${p.result.bankerPoints}`
                          : 'not scored'
                      }${p.foul ? ' — foul (art. 7.º)' : ''}${p.late ? ' — after the five minutes (art. 2.º d))' : ''}${p.natural ? ` — natural: ${p.natural}` : ''}
                    </p>
                  </div>
                  <div class="best" data-testid="best-${p.place}">
                    <h4>The solver’s best</h4>
                    ${
                      p.best
                        ? html`${tierStack(p.best.tiers, null, `best-tiers-${p.place}`)}
                            <p>
                              margin ${p.best.margin} against the banker's; as played
                              ${p.best.playedMargin === null ? 'lost by foul or lateness' : String(p.best.playedMargin)}
                            </p>`
                        : html`<p>none (no banker's arrangement to play against, or the banker fouled)</p>`
                    }
                  </div>
                </div>
                <p class="note">interpretations ${p.interpretations.join(', ')}</p>
              </li>`,
          )}
        </ol>
      </div>
      ${d.payout ? html`<p class="note">Payout settings of the table (interpretation T2): units ${d.payout.units}, commission ${d.payout.commissionPercent}% of the ${d.payout.commissionBase}.</p>` : ''}
    </section>
    <section aria-labelledby="settlement-heading">
      <h2 id="settlement-heading">Each bet: the rules beside the table (MOP)</h2>
      <table class="list settlement" data-testid="settlement">
        <caption>
          Every bet on a place, settled by art. 11.º (interpretation T2), beside what the table declared
        </caption>
        <thead>
          <tr>
            <th scope="col">Bet</th>
            <th scope="col">Bettor</th>
            <th scope="col">Place</th>
            <th scope="col">Stake × points</th>
            <th scope="col">Expected (the rules)</th>
            <th scope="col">Declared (the table)</th>
            <th scope="col">Difference</th>
          </tr>
        </thead>
        <tbody>
          ${bets.map((b) => {
            const diff = b.declared ? b.declared.net - b.expected.net : null;
            const wrong = diff !== 0 || (b.declared !== null && b.declared.outcome !== b.expected.outcome);
            return html`<tr${wrong ? html` class="differs"` : ''}>
              <th scope="row">${b.betId}</th>
              <td>${b.playerId}</td>
              <td>${b.place}</td>
              <td class="num">${mop(b.amount)} × ${b.units}</td>
              <td>
                ${b.expected.outcome}, net ${mop(b.expected.net)}${b.expected.commission ? ` (commission ${mop(b.expected.commission)})` : ''}
              </td>
              <td>${b.declared ? `${b.declared.outcome}, net ${mop(b.declared.net)}` : 'nothing declared'}</td>
              <td class="num">
                ${diff === null ? '—' : diff === 0 ? 'agrees' : html`<strong>${diff > 0 ? '+' : ''}${mop(diff)}</strong>`}
              </td>
            </tr>`;
          })}
        </tbody>
      </table>
      ${bets.length === 0 ? html`<p>No bet was settled by the derivation.</p>` : ''}
      ${(d.notSettled ?? []).map((why) => html`<p class="note">Not settled: ${why}</p>`)}
    </section>`;
}
