/**
 * Which unclear provisions a disputed round hinges on (GET /v1/what-if/rounds/{roundId}/readings): the round derived
 * under every selectable alternative reading of its rule set, each alone against the register's readings. The
 * readings that change it come first, each with its question, both readings, the provisions in PT and ZH, and what
 * changes (findings, bets in MOP, status); the others are listed by id. Linked from the round's page.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ApiClient, Me } from '../api-client.ts';
import { html, type Html } from '../html.ts';
import { macauTimeCell, mop, page, UI_PREFIX } from '../layout.ts';
import { articleTexts } from './what-if.ts';

type Side = { outcome: string; payoutAvos: number; netAvos: number } | null;

interface ReadingsJson {
  readonly roundId: string;
  readonly tableId: string;
  readonly casino: string;
  readonly game: string;
  readonly ruleSetId: string | null;
  readonly roundStartTime: number;
  readonly readings: readonly {
    reading: {
      key: string;
      id: string;
      question: string;
      chosen: string;
      alternative: string;
      articles: readonly { key: string; pt: string | null; zh: string | null }[];
    };
    changed: {
      statusChosen: string;
      statusAlternative: string;
      notDerivedAlternative: string | null;
      findingsAppeared: readonly string[];
      findingsDisappeared: readonly string[];
      lines: readonly { seat: number; betType: string; chosen: Side; alternative: Side }[];
      expectedPaidChosenAvos: number;
      expectedPaidAlternativeAvos: number;
    } | null;
  }[];
  readonly notSelectable: readonly { id: string; reason: string }[];
  readonly eventsRead: number;
}

const label = (key: string) =>
  key.includes(':') ? `${key.split(':')[0]}=ALT${key.split(':')[1]}` : `${key}=ALT`;
/** "F3CP.PAYOUT.MISMATCH ×4, F3CP.OUTCOME.MISDECLARED" */
function counted(ids: readonly string[]): string {
  const m = new Map<string, number>();
  for (const id of ids) m.set(id, (m.get(id) ?? 0) + 1);
  return [...m].map(([id, n]) => (n > 1 ? `${id} ×${n}` : id)).join(', ');
}
const side = (s: Side) => (s ? `${s.outcome} ${mop(s.payoutAvos)}` : 'none');

export function roundReadingsPage(me: Me, x: ReadingsJson): Html {
  const changed = x.readings.filter((r) => r.changed);
  const same = x.readings.filter((r) => !r.changed);
  return page({
    title: `Readings of round ${x.roundId}`,
    me,
    section: 'what-if',
    body: html`<h1>Which unclear provisions round ${x.roundId} hinges on</h1>
      <p>
        Table ${x.tableId}, ${x.casino}; ${x.game}, rule set ${x.ruleSetId ?? 'none'}; started
        ${macauTimeCell(x.roundStartTime)} (Macau time, UTC+8). The round was derived again under each
        selectable alternative reading of its rule set, one at a time, against the register's readings: the
        table folded from its first event under each (${x.eventsRead} events, every link of the hash chain
        checked); nothing was written.
        <a href="${UI_PREFIX}/rounds/${encodeURIComponent(x.roundId)}">Back to the round</a>
      </p>
      <p data-testid="readings-summary">
        ${
          changed.length
            ? `${changed.length} of ${x.readings.length} readings change this round.`
            : `None of the ${x.readings.length} readings changes this round.`
        }
      </p>
      ${changed.map((r) => {
        const c = r.changed!;
        return html`<section class="reading" data-testid="reading-${r.reading.key}">
          <h2>${label(r.reading.key)} — ${r.reading.question}</h2>
          <dl>
            <dt>Chosen reading (the register)</dt>
            <dd>${r.reading.chosen}</dd>
            <dt>Alternative reading</dt>
            <dd>${r.reading.alternative}</dd>
          </dl>
          <details>
            <summary>
              The provisions, in PT and ZH (${r.reading.articles.map((a) => a.key).join('; ')})
            </summary>
            <dl>${articleTexts(r.reading.articles)}</dl>
          </details>
          <p>
            ${
              c.expectedPaidChosenAvos || c.expectedPaidAlternativeAvos
                ? `Winnings owed: ${mop(c.expectedPaidChosenAvos)} under the register's reading, ${mop(c.expectedPaidAlternativeAvos)} under this one.`
                : ''
            }
            ${c.statusChosen !== c.statusAlternative ? `Status ${c.statusChosen} → ${c.statusAlternative}.` : ''}
            ${c.notDerivedAlternative ? `Not derived: ${c.notDerivedAlternative}.` : ''}
            ${c.findingsAppeared.length ? `Findings that appear: ${counted(c.findingsAppeared)}.` : ''}
            ${c.findingsDisappeared.length ? `Findings that disappear: ${counted(c.findingsDisappeared)}.` : ''}
          </p>
          ${
            c.lines.length
              ? html`<table>
                  <thead>
                    <tr>
                      <th>Seat</th>
                      <th>Bet</th>
                      <th>Register's reading</th>
                      <th>This reading</th>
                    </tr>
                  </thead>
                  <tbody>
                    ${c.lines.map(
                      (l) =>
                        html`<tr>
                          <td>${l.seat}</td>
                          <td>${l.betType}</td>
                          <td>${side(l.chosen)}</td>
                          <td>${side(l.alternative)}</td>
                        </tr>`,
                    )}
                  </tbody>
                </table>`
              : ''
          }
        </section>`;
      })}
      ${
        same.length
          ? html`<p data-testid="readings-same">
              No change under: ${same.map((r) => label(r.reading.key)).join(', ')}.
            </p>`
          : ''
      }
      ${
        x.notSelectable.length
          ? html`<details>
              <summary>Interpretations of this rule set whose alternative cannot be selected</summary>
              <ul>
                ${x.notSelectable.map((u) => html`<li><strong>${u.id}</strong>: ${u.reason}</li>`)}
              </ul>
            </details>`
          : ''
      }`,
  });
}

interface Deps {
  session(req: FastifyRequest, reply: FastifyReply): Promise<{ api: ApiClient; me: Me } | null>;
  failed(
    req: FastifyRequest,
    reply: FastifyReply,
    me: Me,
    a: { status: number; message: string },
  ): FastifyReply | Promise<FastifyReply>;
  send(reply: FastifyReply, status: number, body: Html): FastifyReply;
}

export function registerRoundReadingsPage(app: FastifyInstance, d: Deps): void {
  app.get('/rounds/:roundId/readings', async (req, reply) => {
    const s = await d.session(req, reply);
    if (!s) return reply;
    const { roundId } = req.params as { roundId: string };
    const got = await s.api.get<ReadingsJson>(`/v1/what-if/rounds/${encodeURIComponent(roundId)}/readings`);
    if (!got.ok) return d.failed(req, reply, s.me, got);
    return d.send(reply, 200, roundReadingsPage(s.me, got.body));
  });
}
