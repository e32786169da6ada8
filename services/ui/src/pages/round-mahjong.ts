/**
 * A Mah-Jong deal as an inspector pictures it (Portaria n.º 52/89/M art. 1.º–2.º): the tiles counted, the four
 * walls of 17 stacks with the stacks the dice set aside and the break, the dice, each turn of the deal in order
 * (who drew which tiles from which stack, beside what the order gives) and the hands that resulted. The scope
 * notice comes first: outcomes are out of scope until the rest of the regulation is available.
 */
import { html, type Html } from '../html.ts';
import { mahjongScopeNotice, tiles } from './round-parts.ts';

type Seat = 'E' | 'S' | 'W' | 'N';

/** The deal as the API serves it (packages/rules/src/mahjong/explain.ts), each part optional. */
export interface MahjongDerivation {
  ruleSet?: string | null;
  notDerived?: { code: string; message: string } | null;
  deal?: {
    tilesCounted: number;
    tilesExpected: number;
    dice: { faces: number[]; sum: number; time: string };
    break: {
      expectedStack: number | null;
      expectedRow: Seat | null;
      setAside: number | null;
      firstStackDrawn: number | null;
      interpretations: string[];
    };
    walls: {
      row: Seat;
      name: string;
      stacks: {
        position: number;
        setAside: boolean;
        isBreak: boolean;
        takenBy: { turn: number; seat: Seat }[];
      }[];
    }[];
    turns: {
      turn: number;
      seat: Seat;
      tiles: string[];
      fromStack: number;
      expected: { seat: Seat; tiles: number; fromStack: number | null } | null;
      inOrder: boolean;
    }[];
    hands: { seat: Seat; name: string; tiles: string[]; count: number; expected: number }[];
    orderInterpretations: string[];
  } | null;
}

/** One wall: its 17 stacks from the row's right end, each marked set aside, the break, or the turns that took it. */
function wall(w: NonNullable<MahjongDerivation['deal']>['walls'][number]): Html {
  return html`<div class="wall" data-testid="wall-${w.row}">
    <h3>${w.name}'s row</h3>
    <ol class="stacks">
      ${w.stacks.map((s) => {
        const classes = [
          'stack',
          s.setAside ? 'set-aside' : '',
          s.isBreak ? 'break' : '',
          s.takenBy.length ? `taken seat-${s.takenBy[0]!.seat}` : '',
        ]
          .filter(Boolean)
          .join(' ');
        const what = s.isBreak
          ? 'the break: drawing starts here'
          : s.setAside
            ? 'set aside by the dice'
            : s.takenBy.length
              ? `taken in turn ${s.takenBy.map((t) => `${t.turn} by ${t.seat}`).join(', ')}`
              : 'not drawn in the deal';
        return html`<li class="${classes}" title="stack ${s.position}: ${what}">
          <span class="pos">${s.position}</span
          >${s.takenBy.length ? html`<span class="who">${s.takenBy.map((t) => t.seat).join('')}</span>` : s.setAside ? html`<span class="who">×</span>` : ''}
        </li>`;
      })}
    </ol>
  </div>`;
}

export function mahjongTable(d: MahjongDerivation): Html {
  const deal = d.deal;
  return html`${mahjongScopeNotice()}
    <section aria-labelledby="table-heading">
      <h2 id="table-heading">The deal</h2>
      ${d.notDerived ? html`<p class="error" role="status">Not derived (${d.notDerived.code}): ${d.notDerived.message}</p>` : ''}
      ${
        deal
          ? html`<div class="felt mahjong" data-testid="table">
              <div class="dealer-side">
                <div class="dice" data-testid="dice">
                  <h3>Dice (thrown by the banker, East)</h3>
                  <p>${deal.dice.faces.join(' + ')} = ${deal.dice.sum}</p>
                </div>
                <div data-testid="break">
                  <h3>The break (art. 2.º, interpretation ${deal.break.interpretations.join(', ')})</h3>
                  <p>
                    ${
                      deal.break.expectedStack === null
                        ? 'no break: the sum is not one of three dice'
                        : html`${deal.break.setAside} stacks set aside from the right of
                          ${deal.break.expectedRow}'s row; drawing starts at stack ${deal.break.expectedStack}`
                    };
                    the table started at stack
                    ${deal.break.firstStackDrawn ?? '(nothing drawn)'}${
                      deal.break.firstStackDrawn !== null &&
                      deal.break.firstStackDrawn !== deal.break.expectedStack
                        ? html` — <strong>elsewhere than the dice give</strong>`
                        : ''
                    }
                  </p>
                </div>
                <div data-testid="tile-count">
                  <h3>Tiles counted (art. 1.º)</h3>
                  <p>${deal.tilesCounted} of ${deal.tilesExpected}</p>
                </div>
              </div>
              <div class="walls" data-testid="walls">${deal.walls.map(wall)}</div>
              <p class="legend">
                Each stack is two tiles; numbers are ring positions (row E 0–16, S 17–33, W 34–50, N 51–67,
                each from its right end). × set aside by the dice; the letters say which seat took the stack.
              </p>
            </div>`
          : html`<p>No deal to draw: the tiles were not counted or the dice not thrown.</p>`
      }
    </section>
    ${
      deal
        ? html`<section aria-labelledby="deal-heading">
            <h2 id="deal-heading">The deal in order: who received which tiles</h2>
            <table class="list" data-testid="turns">
              <caption>
                Each turn of the deal (art. 2.º, interpretation ${deal.orderInterpretations.join(', ')}),
                beside what the order gives
              </caption>
              <thead>
                <tr>
                  <th scope="col">Turn</th>
                  <th scope="col">Seat</th>
                  <th scope="col">Tiles</th>
                  <th scope="col">From stack</th>
                  <th scope="col">The order gives</th>
                </tr>
              </thead>
              <tbody>
                ${deal.turns.map(
                  (t) =>
                    html`<tr${t.inOrder ? '' : html` class="differs"`}>
                      <td>${t.turn}</td>
                      <td>${t.seat}</td>
                      <td>${tiles(t.tiles)}</td>
                      <td>${t.fromStack}</td>
                      <td>
                        ${
                          t.expected
                            ? `${t.expected.seat}, ${t.expected.tiles} tile(s)${t.expected.fromStack === null ? '' : ` from stack ${t.expected.fromStack}`}`
                            : 'no such turn'
                        }${t.inOrder ? '' : html` — <strong>differs</strong>`}
                      </td>
                    </tr>`,
                )}
              </tbody>
            </table>
            <table class="list" data-testid="hands">
              <caption>
                The hands dealt (art. 2.º: East, the banker, 14; South, West and North 13)
              </caption>
              <thead>
                <tr>
                  <th scope="col">Seat</th>
                  <th scope="col">Tiles</th>
                  <th scope="col">Count</th>
                </tr>
              </thead>
              <tbody>
                ${deal.hands.map(
                  (h) =>
                    html`<tr${h.count === h.expected ? '' : html` class="differs"`} data-testid="hand-${h.seat}">
                      <th scope="row">${h.name}</th>
                      <td>${tiles(h.tiles)}</td>
                      <td class="num">${h.count} of ${h.expected}</td>
                    </tr>`,
                )}
              </tbody>
            </table>
          </section>`
        : ''
    }`;
}
