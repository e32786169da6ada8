/**
 * What-if: an inspector (or a compliance officer, within their concessionaire) picks a provision, one of its
 * alternative readings and a period, and sees what would have changed had the law been read that way: the
 * findings that appear or disappear by check, the money by bet type as a table and a chart, the rounds that
 * changed, and exports of the report (JSON, PDF) that name the readings compared. A comparison is a run of the API
 * (POST /v1/what-if/runs: a scratch derivation in worker threads, nothing written): submitting the form starts one
 * and leads to its page, which shows its progress and reloads itself (a Refresh header: no script) until it is
 * done, then shows the report; a run can be cancelled from its page, and a failed or cancelled run says so.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ApiClient, Me } from '../api-client.ts';
import { html, query, type Html } from '../html.ts';
import { errorPage, macauClock, mop, page, UI_PREFIX } from '../layout.ts';

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
  /** derived now, or answered from the readings kept ready (UTC ms of when its tables were derived) */
  readonly source?:
    | { readonly kind: 'derived'; readonly why: string | null }
    | {
        readonly kind: 'kept';
        readonly preparedFrom: number | null;
        readonly preparedTo: number | null;
        /** tables the kept readings could not answer for, derived now */
        readonly derivedNow: { readonly tables: number; readonly why: string | null };
      };
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

/** A run as GET /v1/what-if/runs/:id answers it. */
export interface RunJson {
  readonly id: string;
  readonly status: 'queued' | 'running' | 'done' | 'failed' | 'cancelled' | 'interrupted';
  readonly readings: readonly { key: string; label: string }[];
  readonly scope: { from: string; to: string; casino?: string; tableId?: string; concessionaire?: string };
  readonly progress: { eventsRead: number; eventsTotal: number | null; fraction: number | null };
  readonly queuePosition: number | null;
  readonly queuedAt: number;
  readonly startedAt: number | null;
  readonly finishedAt: number | null;
  readonly error: string | null;
  /** status interrupted: when and why (the API stopped while the run was queued or running) */
  readonly interrupted?: { readonly at: number; readonly reason: string } | null;
  readonly report: ReportJson | null;
}

/** Seconds between two loads of a run's page while it is queued or running. */
export const RUN_REFRESH_S = 2;

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

/** The form as the run was asked (its first reading: the form names one). */
function formOfRun(run: RunJson): Form {
  const [provision = '', reading = 'ALT'] = (run.readings[0]?.label ?? '').split('=');
  return {
    provision,
    reading: reading === 'ALT2' ? 'ALT2' : 'ALT',
    from: run.scope.from,
    to: run.scope.to,
    table: run.scope.tableId ?? '',
  };
}

const runPath = (id: string) => `${UI_PREFIX}/what-if/runs/${encodeURIComponent(id)}`;

/** A run not done: where it stands, its progress, and (while it can be) a button to cancel it. */
function runStatus(run: RunJson): Html {
  const { eventsRead, eventsTotal, fraction } = run.progress;
  const n = (x: number) => x.toLocaleString('en-US');
  const cancel = html`<form method="post" action="${runPath(run.id)}/cancel" class="inline">
    <button type="submit">Cancel this comparison</button>
  </form>`;
  const times = html`<p>
    Asked at
    ${macauClock(run.queuedAt)}${run.startedAt !== null ? `, started at ${macauClock(run.startedAt)}` : ''}${
      run.finishedAt !== null ? `, ended at ${macauClock(run.finishedAt)}` : ''
    }
    (Macau time).
  </p>`;
  switch (run.status) {
    case 'queued':
      return html`<section data-testid="what-if-run" data-status="queued">
        <p role="status">
          Waiting: ${run.queuePosition === null ? '' : `number ${run.queuePosition} in the queue; `}the API
          compares one period at a time. This page reloads every ${RUN_REFRESH_S} s.
        </p>
        ${times} ${cancel}
      </section>`;
    case 'running':
      return html`<section data-testid="what-if-run" data-status="running">
        <p role="status">
          Comparing: ${n(eventsRead)}${eventsTotal === null ? '' : ` of ${n(eventsTotal)}`} events of the
          store read${fraction === null ? '' : ` (${(fraction * 100).toFixed(1)}%)`}. This page reloads every
          ${RUN_REFRESH_S} s.
        </p>
        ${
          fraction === null
            ? html`<progress data-testid="what-if-progress"></progress>`
            : html`<progress data-testid="what-if-progress" max="1" value="${fraction}"></progress>`
        }
        ${times} ${cancel}
      </section>`;
    case 'failed':
      return html`<section data-testid="what-if-run" data-status="failed">
        <p class="error" role="alert" data-testid="error-message">
          The comparison failed: ${run.error ?? 'no reason given'}. Nothing was written; start it again, or
          ask the API's operator (the API's log names the run ${run.id}).
        </p>
        ${times}
      </section>`;
    case 'cancelled':
      return html`<section data-testid="what-if-run" data-status="cancelled">
        <p class="error" role="alert" data-testid="error-message">
          This comparison was cancelled before it was done: there is no report. Start it again with the form.
        </p>
        ${times}
      </section>`;
    case 'interrupted':
      return html`<section data-testid="what-if-run" data-status="interrupted">
        <p class="error" role="alert" data-testid="error-message">
          This comparison was interrupted: ${run.interrupted?.reason ?? 'the API stopped before it was done'}.
          There is no report. Start it again with the form.
        </p>
        ${times}
      </section>`;
    default:
      return html``;
  }
}

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
/** Each provision of a reading compared, in PT and (where held) ZH, as definition-list entries. */
export const articleTexts = (
  articles: readonly { key: string; pt: string | null; zh: string | null }[],
): Html[] =>
  articles.map(
    (a) =>
      html`<dt>${a.key}</dt>
        <dd lang="pt">${a.pt ?? '(text not held)'}</dd>
        ${a.zh ? html`<dd lang="zh-Hant">${a.zh}</dd>` : ''}`,
  );

export function whatIfPage(
  me: Me,
  readings: readonly ReadingJson[],
  f: Form,
  run: RunJson | null,
  problem: string | null,
): Html {
  const report = run?.status === 'done' ? run.report : null;
  const selectable = readings.filter((r) => r.selectable.length);
  const chosen = readings.find((r) => r.id === f.provision);
  const form = html`<form
    method="post"
    action="${UI_PREFIX}/what-if/runs"
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
    <p>
      <button type="submit">Compare</button> (at most 31 days; nothing is written; a month of a busy floor
      takes minutes: the comparison goes on in the API while this page shows how far it has got)
    </p>
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
  else if (run && !report) body = runStatus(run);
  else if (run && report) {
    const moved = report.findings.filter((x) => x.appeared || x.disappeared);
    const exports = html`<p>
      Export:
      <a href="${runPath(run.id)}/export?format=json" data-testid="export-json">JSON</a> ·
      <a href="${runPath(run.id)}/export?format=pdf" data-testid="export-pdf">PDF</a>
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
            ${articleTexts(r.articles)}
          </dl>`,
      )}
      <p data-testid="what-if-summary">
        ${report.roundsCompared} rounds
        ${
          report.source?.kind === 'kept'
            ? html`compared under both readings, from the readings kept ready
              (${
                report.source.preparedFrom === null
                  ? 'no table in scope'
                  : html`tables derived
                    ${macauClock(report.source.preparedFrom)}${
                      report.source.preparedTo !== report.source.preparedFrom &&
                      report.source.preparedTo !== null
                        ? html` to ${macauClock(report.source.preparedTo)}`
                        : ''
                    }
                    Macau time`
              };
              ${
                report.source.derivedNow.tables
                  ? `${report.source.derivedNow.tables} table(s) derived now: ${report.source.derivedNow.why}`
                  : 'every table still at the event it was derived to'
              })`
            : 're-derived under both readings'
        };
        ${report.roundsChanged} changed. Findings: ${report.findingsChosen} under the chosen reading,
        ${report.findingsAlternative} under the alternative.
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
  /** whether a posted form comes from this site */
  sameOrigin(req: FastifyRequest): boolean;
}

/** An API download's error body as a message. */
function messageOf(got: { status: number; body: Buffer }): string {
  try {
    return (
      (JSON.parse(got.body.toString('utf8')) as { message?: string }).message ??
      `the API answered ${got.status}`
    );
  } catch {
    return `the API answered ${got.status}`; // not JSON: the status says it
  }
}

/**
 * GET /ui/what-if (the form), POST /ui/what-if/runs (starts a run, on to its page), GET /ui/what-if/runs/:id (its
 * progress, reloaded until done; then the report), POST /ui/what-if/runs/:id/cancel, GET
 * /ui/what-if/runs/:id/export (the report as JSON or PDF), and /ui/what-if/export (a period's report waited for,
 * as before runs).
 */
export function registerWhatIfPage(app: FastifyInstance, d: Deps): void {
  app.get('/what-if', async (req, reply) => {
    const s = await d.session(req, reply);
    if (!s) return reply;
    const readings = await s.api.get<ReadingJson[]>('/v1/what-if/readings');
    if (!readings.ok) return d.failed(req, reply, s.me, readings);
    // the form, filled from the address when it names one (nothing is compared before it is submitted)
    const f = formOf(req.query as Record<string, unknown>);
    return d.send(reply, 200, whatIfPage(s.me, readings.body, f, null, null));
  });

  app.post('/what-if/runs', async (req, reply) => {
    const s = await d.session(req, reply);
    if (!s) return reply;
    if (!d.sameOrigin(req))
      return d.send(reply, 403, errorPage(s.me, 403, 'a form posted from another site is refused'));
    const readings = await s.api.get<ReadingJson[]>('/v1/what-if/readings');
    if (!readings.ok) return d.failed(req, reply, s.me, readings);
    const f = formOf((req.body ?? {}) as Record<string, unknown>);
    const missing = !f.provision
      ? 'a provision'
      : !f.from
        ? 'the first date'
        : !f.to
          ? 'the last date'
          : null;
    if (missing)
      return d.send(reply, 400, whatIfPage(s.me, readings.body, f, null, `Choose ${missing} (YYYY-MM-DD).`));
    const made = await s.api.post<RunJson>('/v1/what-if/runs', {
      readings: `${f.provision}=${f.reading}`,
      from: f.from,
      to: f.to,
      ...(f.table ? { table: f.table } : {}),
    });
    if (!made.ok) {
      if (made.status === 400 || made.status === 404 || made.status === 503)
        return d.send(reply, made.status, whatIfPage(s.me, readings.body, f, null, made.message));
      return d.failed(req, reply, s.me, made);
    }
    return reply.redirect(runPath(made.body.id), 303);
  });

  app.get('/what-if/runs/:id', async (req, reply) => {
    const s = await d.session(req, reply);
    if (!s) return reply;
    const { id } = req.params as { id: string };
    const run = await s.api.get<RunJson>(`/v1/what-if/runs/${encodeURIComponent(id)}`);
    if (!run.ok) return d.failed(req, reply, s.me, run);
    const readings = await s.api.get<ReadingJson[]>('/v1/what-if/readings');
    if (!readings.ok) return d.failed(req, reply, s.me, readings);
    // not done yet: the browser loads the page again (no script needed)
    if (run.body.status === 'queued' || run.body.status === 'running')
      reply.header('refresh', String(RUN_REFRESH_S));
    return d.send(reply, 200, whatIfPage(s.me, readings.body, formOfRun(run.body), run.body, null));
  });

  app.post('/what-if/runs/:id/cancel', async (req, reply) => {
    const s = await d.session(req, reply);
    if (!s) return reply;
    if (!d.sameOrigin(req))
      return d.send(reply, 403, errorPage(s.me, 403, 'a form posted from another site is refused'));
    const { id } = req.params as { id: string };
    const done = await s.api.delete<RunJson>(`/v1/what-if/runs/${encodeURIComponent(id)}`);
    // a run that ended meanwhile (409): its page says how it ended
    if (!done.ok && done.status !== 409) return d.failed(req, reply, s.me, done);
    return reply.redirect(runPath(id), 303);
  });

  app.get('/what-if/runs/:id/export', async (req, reply) => {
    const s = await d.session(req, reply);
    if (!s) return reply;
    const { id } = req.params as { id: string };
    const format = (req.query as Record<string, unknown>)['format'] === 'pdf' ? 'pdf' : 'json';
    const path = `/v1/what-if/runs/${encodeURIComponent(id)}`;
    if (format === 'pdf') {
      const got = await s.api.download(`${path}?format=pdf`);
      if (got.status !== 200)
        return d.failed(req, reply, s.me, { status: got.status, message: messageOf(got) });
      for (const h of ['content-type', 'content-disposition'] as const)
        if (got.headers[h] !== undefined) reply.header(h, got.headers[h]);
      return reply.header('cache-control', 'no-store').send(got.body);
    }
    const run = await s.api.get<RunJson>(path);
    if (!run.ok) return d.failed(req, reply, s.me, run);
    if (run.body.status !== 'done')
      return d.failed(req, reply, s.me, {
        status: 409,
        message: `the comparison is ${run.body.status}: its report exists once it is done`,
      });
    const { from, to } = run.body.scope;
    return reply
      .header('content-type', 'application/json; charset=utf-8')
      .header('content-disposition', `attachment; filename="what-if-${from}-${to}.json"`)
      .header('cache-control', 'no-store')
      .send(JSON.stringify(run.body.report));
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
    if (got.status !== 200)
      return d.failed(req, reply, s.me, { status: got.status, message: messageOf(got) });
    for (const h of ['content-type', 'content-disposition'] as const)
      if (got.headers[h] !== undefined) reply.header(h, got.headers[h]);
    if (format === 'json')
      reply.header('content-disposition', `attachment; filename="what-if-${f.from}-${f.to}.json"`);
    return reply.header('cache-control', 'no-store').send(got.body);
  });
}
