/**
 * What-if: an inspector (or a compliance officer, within their concessionaire) picks a provision, one of its
 * alternative readings and a period, and sees what would have changed had the law been read that way: the
 * findings that appear or disappear by check, the money by bet type as a table and a chart, the rounds that
 * changed, and exports of the report (JSON, PDF) that name the readings compared. Everything comes from
 * GET /v1/what-if (a scratch derivation: nothing is written).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ApiClient, Me } from '../api-client.ts';
import { html, query, type Html } from '../html.ts';
import { macauClock, mop, page, UI_PREFIX } from '../layout.ts';

interface ReadingJson {
  readonly id: string;
  readonly question: string;
  readonly reading: string;
  readonly alternative: string;
  readonly selectable: readonly { key: string; label: string; effect: string }[];
  readonly status: string;
  readonly reason: string | null;
}

interface ReportJson {
  readonly roundsCompared: number;
  readonly roundsChanged: number;
  readonly findingsChosen: number;
  readonly findingsAlternative: number;
  readonly readings: readonly {
    key: string;
    id: string;
    question: string;
    chosen: string;
    alternative: string;
    effect: string;
    articles: readonly { key: string; pt: string | null; zh: string | null }[];
  }[];
  readonly findings: readonly {
    checkId: string;
    casino: string;
    tableId: string;
    appeared: number;
    disappeared: number;
  }[];
  readonly money: readonly {
    betType: string;
    chosenPaidAvos: number;
    alternativePaidAvos: number;
    chosenNetAvos: number;
    alternativeNetAvos: number;
    linesChanged: number;
  }[];
  readonly changed: readonly {
    roundId: string;
    tableId: string;
    casino: string;
    roundStartTime: number;
    findingsAppeared: readonly string[];
    findingsDisappeared: readonly string[];
    lines: readonly unknown[];
  }[];
}

interface Form {
  provision: string;
  reading: 'ALT' | 'ALT2';
  from: string;
  to: string;
  table: string;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

function formOf(q: Record<string, unknown>): Form {
  const s = (k: string, max = 100) => (typeof q[k] === 'string' ? (q[k] as string).trim().slice(0, max) : '');
  return {
    provision: s('provision', 8).toUpperCase(),
    reading: s('reading') === 'ALT2' ? 'ALT2' : 'ALT',
    from: DATE.test(s('from')) ? s('from') : '',
    to: DATE.test(s('to')) ? s('to') : '',
    table: s('table'),
  };
}

const apiQuery = (f: Form, format?: string) =>
  query({
    readings: `${f.provision}=${f.reading}`,
    from: f.from,
    to: f.to,
    table: f.table || undefined,
    format,
  });

/** Horizontal bars, one per bet type, of the change in the players' net (MOP); the numbers also as a table. */
function moneyChart(money: ReportJson['money']): Html {
  const rows = money.filter((m) => m.linesChanged > 0);
  if (!rows.length)
    return html`<figure class="chart" data-testid="what-if-chart">
      <figcaption>Change in the players' net by bet type</figcaption>
      <p>No bet is settled differently.</p>
    </figure>`;
  const diffs = rows.map((m) => m.alternativeNetAvos - m.chosenNetAvos);
  const max = Math.max(...diffs.map(Math.abs), 1);
  const width = 640;
  const rowH = 28;
  const left = 140;
  const mid = left + (width - left - 10) / 2;
  const half = (width - left - 10) / 2;
  const height = rows.length * rowH + 20;
  return html`<figure class="chart" data-testid="what-if-chart">
    <figcaption>
      Change in the players' net by bet type (MOP), the alternative reading less the chosen one
    </figcaption>
    <svg
      viewBox="0 0 ${width} ${height}"
      role="img"
      aria-label="Change in the players' net by bet type: ${rows
        .map((m, i) => `${m.betType} ${mop(diffs[i]!)}`)
        .join('; ')}"
      width="100%"
      preserveAspectRatio="xMinYMin meet"
    >
      <line x1="${mid}" y1="0" x2="${mid}" y2="${height - 10}" class="axis" stroke="currentColor" />
      ${rows.map((m, i) => {
        const d = diffs[i]!;
        const w = (Math.abs(d) / max) * half;
        const y = 10 + i * rowH;
        return html`<text x="0" y="${y + 15}" font-size="12">${m.betType}</text>
          <rect
            x="${d >= 0 ? mid : mid - w}"
            y="${y}"
            width="${Math.max(1, w)}"
            height="${rowH - 8}"
            class="series-${d >= 0 ? 0 : 1}"
          >
            <title>${m.betType}: ${mop(d)}</title>
          </rect>`;
      })}
    </svg>
  </figure>`;
}

/** The page: the form, then (when asked) the report. */
export function whatIfPage(
  me: Me,
  readings: readonly ReadingJson[],
  f: Form,
  report: ReportJson | null,
  problem: string | null,
): Html {
  const selectable = readings.filter((r) => r.selectable.length);
  const chosen = readings.find((r) => r.id === f.provision);
  const form = html`<form
    method="get"
    action="${UI_PREFIX}/what-if"
    class="what-if"
    data-testid="what-if-form"
  >
    <p>
      <label for="provision">Provision (interpretation)</label><br />
      <select id="provision" name="provision" required>
        ${selectable.map(
          (r) =>
            html`<option value="${r.id}" ${r.id === f.provision ? html`selected` : ''}>
              ${r.id} — ${r.question.length > 110 ? `${r.question.slice(0, 107)}…` : r.question}
            </option>`,
        )}
      </select>
    </p>
    <p>
      <label for="reading">Reading</label><br />
      <select id="reading" name="reading">
        <option value="ALT" ${f.reading === 'ALT' ? html`selected` : ''}>the alternative (ALT)</option>
        <option value="ALT2" ${f.reading === 'ALT2' ? html`selected` : ''}>
          the second alternative, where the register names two (ALT2)
        </option>
      </select>
    </p>
    <p>
      <label for="from">From (Macau date)</label>
      <input id="from" name="from" type="date" required value="${f.from}" />
      <label for="to">to</label>
      <input id="to" name="to" type="date" required value="${f.to}" />
      <label for="table">Table (optional)</label>
      <input id="table" name="table" maxlength="100" value="${f.table}" />
    </p>
    <p><button type="submit">Compare</button> (at most 31 days; nothing is written)</p>
  </form>`;
  const notSelectable = readings.filter((r) => !r.selectable.length);
  const why = html`<details>
    <summary>Interpretations whose alternative cannot be selected (${notSelectable.length})</summary>
    <ul>
      ${notSelectable.map((r) => html`<li><strong>${r.id}</strong>: ${r.reason ?? ''}</li>`)}
    </ul>
  </details>`;
  let body: Html = html``;
  if (problem) body = html`<p class="error" role="alert" data-testid="error-message">${problem}</p>`;
  else if (report) {
    const moved = report.findings.filter((x) => x.appeared || x.disappeared);
    const exports = html`<p>
      Export:
      <a href="${UI_PREFIX}/what-if/export${apiQuery(f, 'json')}" data-testid="export-json">JSON</a> ·
      <a href="${UI_PREFIX}/what-if/export${apiQuery(f, 'pdf')}" data-testid="export-pdf">PDF</a>
    </p>`;
    body = html`<section data-testid="what-if-report">
      <h2>
        ${report.readings.map((r) => `${r.id}=${r.key.includes(':') ? 'ALT2' : 'ALT'}`).join(', ')}, ${f.from}
        to ${f.to}
      </h2>
      ${report.readings.map(
        (r) =>
          html`<dl>
            <dt>Question</dt>
            <dd>${r.question}</dd>
            <dt>Chosen reading (the register)</dt>
            <dd>${r.chosen}</dd>
            <dt>Alternative reading</dt>
            <dd>${r.alternative}</dd>
            ${r.articles.map(
              (a) =>
                html`<dt>${a.key}</dt>
                  <dd lang="pt">${a.pt ?? '(text not held)'}</dd>
                  ${a.zh ? html`<dd lang="zh-Hant">${a.zh}</dd>` : ''}`,
            )}
          </dl>`,
      )}
      <p data-testid="what-if-summary">
        ${report.roundsCompared} rounds re-derived under both readings; ${report.roundsChanged} changed.
        Findings: ${report.findingsChosen} under the chosen reading, ${report.findingsAlternative} under the
        alternative.
      </p>
      ${exports}
      <h3>Money by bet type</h3>
      ${moneyChart(report.money)}
      <table data-testid="what-if-money">
        <thead>
          <tr>
            <th>Bet</th>
            <th>Bets settled differently</th>
            <th>Winnings, chosen</th>
            <th>Winnings, alternative</th>
            <th>Players' net, chosen</th>
            <th>Players' net, alternative</th>
          </tr>
        </thead>
        <tbody>
          ${report.money.map(
            (m) =>
              html`<tr>
                <td>${m.betType}</td>
                <td>${m.linesChanged}</td>
                <td>${mop(m.chosenPaidAvos)}</td>
                <td>${mop(m.alternativePaidAvos)}</td>
                <td>${mop(m.chosenNetAvos)}</td>
                <td>${mop(m.alternativeNetAvos)}</td>
              </tr>`,
          )}
        </tbody>
      </table>
      <h3>Findings that appear or disappear</h3>
      ${
        moved.length
          ? html`<table data-testid="what-if-findings">
              <thead>
                <tr>
                  <th>Check</th>
                  <th>Casino</th>
                  <th>Table</th>
                  <th>Appear</th>
                  <th>Disappear</th>
                </tr>
              </thead>
              <tbody>
                ${moved.map(
                  (x) =>
                    html`<tr>
                      <td>${x.checkId}</td>
                      <td>${x.casino}</td>
                      <td>${x.tableId}</td>
                      <td>${x.appeared}</td>
                      <td>${x.disappeared}</td>
                    </tr>`,
                )}
              </tbody>
            </table>`
          : html`<p>None.</p>`
      }
      <h3>
        Rounds that changed (the first ${Math.min(50, report.changed.length)} of ${report.roundsChanged})
      </h3>
      <ul data-testid="what-if-rounds">
        ${report.changed
          .slice(0, 50)
          .map(
            (c) =>
              html`<li>
                <a href="${UI_PREFIX}/rounds/${encodeURIComponent(c.roundId)}">${c.roundId}</a> ${c.tableId},
                ${c.casino}, ${macauClock(c.roundStartTime)}:
                ${[...c.findingsAppeared.map((x) => `+${x}`), ...c.findingsDisappeared.map((x) => `−${x}`)].join(' ')}
                ${c.lines.length ? `${c.lines.length} bets settled differently` : ''}
              </li>`,
          )}
      </ul>
    </section>`;
  } else if (chosen) body = html`<p>${chosen.question}</p>`;
  return page({
    title: 'What-if',
    me,
    section: 'what-if',
    body: html`<h1>What-if: the law read another way</h1>
      <p>
        Pick a provision whose reading the interpretation register records, one of its alternative readings
        and a period: every round of the period is derived again under that reading beside the register's, in
        scratch, and what changes is shown here.
      </p>
      ${form} ${why} ${body}`,
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

/** GET /ui/what-if (the page) and /ui/what-if/export (the report as the API exports it). */
export function registerWhatIfPage(app: FastifyInstance, d: Deps): void {
  app.get('/what-if', async (req, reply) => {
    const s = await d.session(req, reply);
    if (!s) return reply;
    const readings = await s.api.get<ReadingJson[]>('/v1/what-if/readings');
    if (!readings.ok) return d.failed(req, reply, s.me, readings);
    const f = formOf(req.query as Record<string, unknown>);
    if (!f.provision || !f.from || !f.to)
      return d.send(reply, 200, whatIfPage(s.me, readings.body, f, null, null));
    const r = await s.api.get<ReportJson>(`/v1/what-if${apiQuery(f)}`);
    if (!r.ok) {
      if (r.status === 400) return d.send(reply, 400, whatIfPage(s.me, readings.body, f, null, r.message));
      return d.failed(req, reply, s.me, r);
    }
    return d.send(reply, 200, whatIfPage(s.me, readings.body, f, r.body, null));
  });

  app.get('/what-if/export', async (req, reply) => {
    const s = await d.session(req, reply);
    if (!s) return reply;
    const q = req.query as Record<string, unknown>;
    const format = q['format'] === 'pdf' ? 'pdf' : 'json';
    const readings = typeof q['readings'] === 'string' ? q['readings'].slice(0, 500) : '';
    const f = formOf(q);
    const got = await s.api.download(
      `/v1/what-if${query({ readings, from: f.from, to: f.to, table: f.table || undefined, format })}`,
    );
    if (got.status !== 200) {
      let message = `the API answered ${got.status}`;
      try {
        message = (JSON.parse(got.body.toString('utf8')) as { message: string }).message ?? message;
      } catch {
        // not JSON: the status says it
      }
      return d.failed(req, reply, s.me, { status: got.status, message });
    }
    for (const h of ['content-type', 'content-disposition'] as const)
      if (got.headers[h] !== undefined) reply.header(h, got.headers[h]);
    if (format === 'json')
      reply.header('content-disposition', `attachment; filename="what-if-${f.from}-${f.to}.json"`);
    return reply.header('cache-control', 'no-store').send(got.body);
  });
}
