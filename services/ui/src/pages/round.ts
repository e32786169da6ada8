/**
 * A disputed round as an inspector pictures it, game by game: for F3CP the table (banker, community cards, seats
 * with their cards and bets) and the derivation beside what was declared; for CRAPS the throw (round-craps.ts);
 * for 13 Cards the places' tiers (round-thirteen.ts); for Mah-Jong the deal, under its scope notice
 * (round-mahjong.ts). Then, for every game, the findings with the text of the articles they cite in Portuguese or
 * Chinese, the timeline in Macau time, and every provision cited.
 */
import type { Me, Provision, ReplayJson } from '../api-client.ts';
import { barChart, type Bar } from '../charts.ts';
import { html, type Html } from '../html.ts';
import { evidenceLinks, macauTimeCell, mop, page, UI_PREFIX } from '../layout.ts';
import { crapsTable, type CrapsDerivation } from './round-craps.ts';
import { mahjongTable, type MahjongDerivation } from './round-mahjong.ts';
import { card, cards } from './round-parts.ts';
import { thirteenTable, type ThirteenDerivation } from './round-thirteen.ts';

export { card };

/** `table-audit replay ROUND_ID --json` as the API serves it: the rules' Explanation, each part optional. */
type Derivation = ReplayJson['derivation'];

export type Lang = 'pt' | 'zh';
export const langOf = (v: unknown): Lang => (v === 'zh' ? 'zh' : 'pt');

/** What the table declared for a bet, as the change to the player: payout − collected (a return is neutral). */
export const declaredNet = (d: { payout: number; collected: number }): number => d.payout - d.collected;

function languageSwitch(lang: Lang, roundId: string): Html {
  const option = (value: Lang, label: string) =>
    html`<label
      ><input type="radio" name="lang" value="${value}" ${lang === value ? html` checked` : ''} />
      ${label}</label
    >`;
  return html`<form
    class="lang"
    method="get"
    action="${UI_PREFIX}/rounds/${encodeURIComponent(roundId)}"
    data-lang-switch
  >
    <fieldset>
      <legend>Article text in</legend>
      ${option('pt', 'Português')} ${option('zh', '中文')} <button type="submit">Show</button>
    </fieldset>
  </form>`;
}

/** An article's text in both languages, the one not chosen hidden (the switch shows it without a reload). */
function articleText(p: Provision | undefined, lang: Lang): Html {
  if (!p) return html``;
  // the text is shown with its own line breaks (white-space: pre-wrap): no whitespace around it
  const one = (l: Lang, text: string | null, htmlLang: string) => {
    const shown = text ?? `(no ${l === 'pt' ? 'Portuguese' : 'Chinese'} text registered for ${p.key})`;
    // prettier-ignore
    return html`<blockquote class="law" lang="${htmlLang}" data-lang="${l}"${lang === l ? '' : html` hidden`}>${shown.trim()}</blockquote>`;
  };
  return html`${one('pt', p.pt, 'pt')}${one('zh', p.zh, 'zh-Hant')}`;
}

function tableView(d: Derivation): Html {
  const seats = d.seats ?? [];
  const lines = d.lines ?? [];
  const seatNumbers = [...new Set([...seats.map((s) => s.seat), ...lines.map((l) => l.seat)])].sort(
    (a, b) => a - b,
  );
  return html`<section aria-labelledby="table-heading">
    <h2 id="table-heading">The table</h2>
    <div class="felt" data-testid="table">
      <div class="dealer-side">
        <div class="banker" data-testid="banker">
          <h3>Banker</h3>
          ${
            d.banker
              ? html`${cards(d.banker.cards)}
                  <p>${d.banker.hand}, ${d.banker.qualifies ? 'qualifies' : 'does not qualify'}</p>`
              : html`<p>not derived</p>`
          }
        </div>
        ${
          d.community && d.community.length
            ? html`<div class="community" data-testid="community">
                <h3>Community cards</h3>
                ${cards(d.community)}
              </div>`
            : ''
        }
      </div>
      <ol class="seats">
        ${seatNumbers.map((n) => {
          const s = seats.find((x) => x.seat === n);
          const bets = lines.filter((l) => l.seat === n);
          return html`<li class="seat" data-testid="seat-${n}">
            <h3>Seat ${n}</h3>
            ${s ? cards(s.cards) : html`<span class="cards">no hand</span>`}${
              s
                ? html`<p>
                    ${s.hand}${s.decision ? `, ${s.decision}` : ''}${s.versusBanker ? `, ${s.versusBanker} than the banker` : ''}
                  </p>`
                : ''
            }
            <ul class="bets">
              ${bets.map((b) => html`<li><span class="chip">${mop(b.stake)}</span> ${b.bet}</li>`)}
            </ul>
          </li>`;
        })}
      </ol>
    </div>
    <p class="note">
      Dealing: ${d.dealingMode ?? 'not stated'}.
      ${
        d.community === undefined
          ? 'The derivation of this game does not list community cards; the timeline shows each card dealt.'
          : ''
      }
    </p>
  </section>`;
}

function timeline(d: Derivation, evidence: ReadonlySet<string>): Html {
  return html`<section aria-labelledby="timeline-heading">
    <h2 id="timeline-heading">Timeline (Macau time, UTC+8)</h2>
    <table class="list" data-testid="timeline">
      <caption>
        Every event of the round in the order stored; events a finding rests on are marked
      </caption>
      <thead>
        <tr>
          <th scope="col">Time (Macau, UTC+8)</th>
          <th scope="col">Event</th>
          <th scope="col">What</th>
          <th scope="col">Event id</th>
        </tr>
      </thead>
      <tbody>
        ${(d.steps ?? []).map((s) => {
          const ms = Date.parse(s.time);
          return html`<tr${evidence.has(s.eventId) ? html` class="evidence"` : ''}><td>${
            Number.isNaN(ms) ? s.time : macauTimeCell(ms)
          }</td><td>${s.type}</td><td>${s.text}${evidence.has(s.eventId) ? html` <strong>(evidence of a finding)</strong>` : ''}</td><td><code>${s.eventId}</code></td></tr>`;
        })}
      </tbody>
    </table>
  </section>`;
}

function settlement(d: Derivation): Html {
  const lines = d.lines ?? [];
  const bars: Bar[] = [];
  const rows = lines.map((l) => {
    const diff = l.declared ? declaredNet(l.declared) - l.expected.net : null;
    if (diff !== null && diff !== 0)
      bars.push({
        label: `seat ${l.seat} ${l.bet}`,
        value: diff,
        shown: `${diff > 0 ? '+' : ''}${mop(diff)}`,
      });
    return html`<tr${diff !== 0 ? html` class="differs"` : ''}>
<th scope="row">Seat ${l.seat}</th><td>${l.bet}</td><td class="num">${mop(l.stake)}</td>
<td class="nowrap">${l.expected.outcome}<br>pays ${mop(l.expected.payout)}</td><td class="num">${mop(l.expected.net)}</td>
<td class="nowrap">${l.declared ? html`paid ${mop(l.declared.payout)}<br />collected ${mop(l.declared.collected)}<br />returned ${mop(l.declared.returned)}` : 'nothing declared'}</td>
<td class="num">${l.declared ? mop(declaredNet(l.declared)) : '—'}</td>
<td class="num">${diff === null ? '—' : diff === 0 ? 'agrees' : html`<strong>${diff > 0 ? '+' : ''}${mop(diff)}</strong>`}</td>
<td class="basis">${l.basis}<br><small>${l.citations.map((c) => c.reference).join('; ')}${
      l.interpretations.length ? `; interpretations ${l.interpretations.join(', ')}` : ''
    }</small></td></tr>`;
  });
  return html`<section aria-labelledby="settlement-heading">
    <h2 id="settlement-heading">Derivation beside what was declared (MOP)</h2>
    ${d.ruleSet ? html`<p>Rule set <strong>${d.ruleSet.id}</strong> (Despacho ${d.ruleSet.diplomas.join(' + ')}): ${d.ruleSet.why}.</p>` : ''}
    ${d.notDerived ? html`<p class="error" role="status">Not derived (${d.notDerived.code}): ${d.notDerived.message}</p>` : ''}
    ${d.banker ? html`<p>Banker: ${d.banker.hand}, ${d.banker.qualifies ? 'qualifies' : 'does not qualify'} — ${d.banker.citations.map((c) => c.reference).join('; ')}</p>` : ''}
    <table class="list settlement" data-testid="settlement">
      <caption>
        Each bet: what the rules give, what the table declared, and the difference to the player (declared net
        − expected net)
      </caption>
      <thead>
        <tr>
          <th scope="col">Seat</th>
          <th scope="col">Bet</th>
          <th scope="col">Stake</th>
          <th scope="col">Expected (the rules)</th>
          <th scope="col">Expected net</th>
          <th scope="col">Declared (the table)</th>
          <th scope="col">Declared net</th>
          <th scope="col">Difference</th>
          <th scope="col">Basis and articles</th>
        </tr>
      </thead>
      <tbody>
        ${rows}
      </tbody>
    </table>
    ${lines.length === 0 ? html`<p>No bet was settled by the derivation.</p>` : ''}
    ${bars.length ? barChart(bars, 'Declared minus expected, per bet (MOP; positive: the player got more)', 'chart-round-differences') : ''}
    ${
      d.jackpot
        ? html`<h3>Progressive jackpot</h3>
            <p>Pool ${mop(d.jackpot.poolBefore)} before, ${mop(d.jackpot.poolAfter)} after.</p>
            ${
              d.jackpot.payments.length
                ? html`<table class="list">
                    <caption>
                      Jackpot payments in the order due
                    </caption>
                    <thead>
                      <tr>
                        <th scope="col">Order</th>
                        <th scope="col">Seat</th>
                        <th scope="col">Hand</th>
                        <th scope="col">Amount</th>
                        <th scope="col">Pool before</th>
                        <th scope="col">Pool after</th>
                      </tr>
                    </thead>
                    <tbody>
                      ${d.jackpot.payments.map(
                        (p) =>
                          html`<tr>
                            <td>${p.order}</td>
                            <td>${p.seat}</td>
                            <td>${p.hand}</td>
                            <td class="num">${mop(p.amount)}</td>
                            <td class="num">${mop(p.poolBefore)}</td>
                            <td class="num">${mop(p.poolAfter)}</td>
                          </tr>`,
                      )}
                    </tbody>
                  </table>`
                : ''
            }`
        : ''
    }
    ${
      d.voided
        ? html`<h3>Voided round</h3>
            <p>${d.voided.reason}${d.voided.note ? ` — ${d.voided.note}` : ''}</p>
            <table class="list">
              <caption>
                Bets of the voided round
              </caption>
              <thead>
                <tr>
                  <th scope="col">Seat</th>
                  <th scope="col">Bet</th>
                  <th scope="col">Amount</th>
                  <th scope="col">Expected</th>
                  <th scope="col">Declared</th>
                  <th scope="col">Correct</th>
                </tr>
              </thead>
              <tbody>
                ${d.voided.bets.map(
                  (b) =>
                    html`<tr${b.correct ? '' : html` class="differs"`}><td>${b.seat}</td><td>${b.betType}</td><td class="num">${mop(b.amount)}</td><td>${b.expected}</td><td>paid ${mop(b.declared.payout)}, collected ${mop(b.declared.collected)}, returned ${mop(b.declared.returned)}</td><td>${b.correct ? 'yes' : 'no'}</td></tr>`,
                )}
              </tbody>
            </table>`
        : ''
    }
  </section>`;
}

/** A finding as a round's derivation carries it; a CRAPS one the replay has not stored yet has no id. */
type RoundFinding = Omit<NonNullable<Derivation['findings']>[number], 'findingId'> & {
  findingId: string | null;
};

function findingsSection(
  r: ReplayJson,
  d: Derivation,
  lang: Lang,
  provisions: ReadonlyMap<string, Provision>,
): Html {
  const interpretations = new Map(r.interpretations.map((i) => [i.id, i]));
  const findings = (d.findings ?? []) as RoundFinding[];
  return html`<section aria-labelledby="findings-heading">
    <h2 id="findings-heading">Findings (${findings.length})</h2>
    ${findings.length === 0 ? html`<p>The replay found nothing wrong in this round.</p>` : ''}
    ${findings.map(
      (f) =>
        html`<article class="finding" data-testid="finding">
          <h3><span class="badge sev-${f.severity}">${f.severity}</span> ${f.title}</h3>
          <p>${f.summary}</p>
          <p>
            <code>${f.checkId}</code> · rule set ${f.ruleSet} · ${macauTimeCell(f.eventTime)} Macau time
            (UTC+8) ·
            ${
              f.findingId === null
                ? 'not stored yet: the replay has not appended it (no alert to work)'
                : f.handled
                  ? 'handled at the table'
                  : html`<a href="${UI_PREFIX}/alerts/${encodeURIComponent(f.findingId)}">work the alert</a>`
            }
          </p>
          <details>
            <summary>Expected and declared, as data (amounts in avos)</summary>
            <pre>${JSON.stringify({ expected: f.expected, declared: f.declared }, null, 2)}</pre>
          </details>
          <h4>Articles cited</h4>
          ${f.citations.map(
            (c) =>
              html`<div class="citation">
                <p><strong>${c.reference}</strong></p>
                ${articleText(provisions.get(c.key), lang)}
              </div>`,
          )}
          ${
            f.interpretations.length
              ? html`<h4>Interpretations it depends on</h4>
                  <ul>
                    ${f.interpretations.map((id) => {
                      const i = interpretations.get(id);
                      return html`<li>
                        <strong>${id}</strong
                        >${i?.question ? html`: ${i.question} <em>Reading:</em> ${i.reading ?? '—'}` : ''}
                      </li>`;
                    })}
                  </ul>`
              : ''
          }
        </article>`,
    )}
  </section>`;
}

/** The game's own picture of the round: its table and its settlement, or its deal. */
function gameView(r: ReplayJson, d: Derivation): Html {
  switch (r.game) {
    case 'CRAPS':
      return crapsTable(r.derivation as CrapsDerivation);
    case 'THIRTEEN_CARDS':
      return thirteenTable(r.derivation as ThirteenDerivation);
    case 'MAHJONG':
      return mahjongTable(r.derivation as MahjongDerivation);
    default:
      return html`${tableView(d)} ${settlement(d)}`;
  }
}

const GAME_NAMES: Record<string, string> = {
  F3CP: 'Fortune 3 Card Poker',
  CRAPS: 'CRAPS (a throw)',
  THIRTEEN_CARDS: '13 Cards',
  MAHJONG: 'Mah-Jong (the deal)',
};

export function roundPage(me: Me, r: ReplayJson, lang: Lang): Html {
  const d: Derivation = r.derivation ?? {};
  const provisions = new Map(r.provisions.map((p) => [p.key, p]));
  const evidence = new Set((d.findings ?? []).flatMap((f) => f.evidenceEventIds));
  const ruleSet = (r.derivation as { ruleSet?: unknown }).ruleSet;
  return page({
    title: `Round ${r.roundId}`,
    me,
    section: 'round',
    body: html`<h1>Round ${r.roundId}</h1>
      <p data-testid="game">
        ${r.game ? (GAME_NAMES[r.game] ?? r.game) : 'game not stated'} · table ${r.tableId}, ${r.casino}
        (${r.concessionaire})${typeof ruleSet === 'string' ? ` · rule set ${ruleSet}` : ''}.
      </p>
      ${evidenceLinks('rounds', r.roundId)}
      <p>
        <a href="${UI_PREFIX}/rounds/${encodeURIComponent(r.roundId)}/readings" data-testid="round-readings"
          >Which unclear provisions this round hinges on</a
        >
        (the round derived under every alternative reading the interpretation register records)
      </p>
      ${languageSwitch(lang, r.roundId)} ${gameView(r, d)} ${findingsSection(r, d, lang, provisions)}
      ${timeline(d, evidence)}
      <section aria-labelledby="law-heading">
        <h2 id="law-heading">Every provision the derivation cites</h2>
        ${r.provisions.map(
          (p) =>
            html`<div class="citation">
              <p><strong>${p.reference}</strong></p>
              ${articleText(p, lang)}
            </div>`,
        )}
      </section>
      <details>
        <summary>The derivation as text (as <code>table-audit replay</code> prints it)</summary>
        <pre>${r.text}</pre>
      </details>`,
  });
}
