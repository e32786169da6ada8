/** The alert inbox and the incident search: a filter form, a findings table, paging, and charts. */
import type { AlertStateJson, FindingJson, Me, Page } from '../api-client.ts';
import { barChart, seriesChart, SEVERITIES, type ChartJson } from '../charts.ts';
import { html, query, type Html } from '../html.ts';
import { macauTimeCell, mop, page, UI_PREFIX } from '../layout.ts';
import { mahjongScopeNotice } from './round-parts.ts';

/** The filters of /v1/findings and /v1/alerts that the forms offer (the API checks and bounds each). */
export const FILTERS = [
  ['concessionaire', 'Concessionaire'],
  ['casino', 'Casino'],
  ['tableId', 'Table'],
  ['game', 'Game'],
  ['checkId', 'Check id'],
  ['severity', 'Severity'],
  ['from', 'From (Macau time)'],
  ['to', 'To (Macau time)'],
  ['dealerId', 'Dealer'],
  ['playerId', 'Player'],
  ['roundId', 'Round'],
] as const;
/** The alert inbox's filters on the workflow state (/v1/alerts only). */
export const ALERT_FILTERS = [
  ['status', 'Status'],
  ['assignee', 'Assignee'],
  ['disposition', 'Disposition'],
] as const;
const CHOICES: Partial<Record<string, readonly string[]>> = {
  severity: SEVERITIES,
  status: ['open', 'acknowledged', 'resolved'],
  disposition: ['confirmed', 'false_positive', 'referred'],
};
export type FilterName = (typeof FILTERS)[number][0] | (typeof ALERT_FILTERS)[number][0];
export type Filters = Partial<Record<FilterName, string>>;

/** The Mah-Jong scope notice, when the filters ask for Mah-Jong or the page lists a Mah-Jong finding. */
const scopeNoticeFor = (f: Filters, items: readonly { checkId: string }[]): Html | '' =>
  f.game === 'MAHJONG' ||
  f.checkId?.startsWith('MAHJONG.') ||
  items.some((x) => x.checkId.startsWith('MAHJONG.'))
    ? mahjongScopeNotice()
    : '';

/**
 * The filters given in a query string, each trimmed and bounded; unknown parameters are not passed on, nor the
 * workflow filters unless `alerts` (the findings route has none).
 */
export function filtersOf(q: Record<string, unknown>, alerts = false): Filters {
  const out: Filters = {};
  for (const [name] of [...FILTERS, ...(alerts ? ALERT_FILTERS : [])]) {
    const v = q[name];
    if (typeof v === 'string' && v.trim() !== '') out[name] = v.trim().slice(0, 200);
  }
  return out;
}

function filterForm(action: string, f: Filters, me: Me, alerts = false): Html {
  return html`<form class="filters" method="get" action="${action}" aria-labelledby="filters-heading">
    <h2 id="filters-heading">Filters</h2>
    <div class="fields">
      ${[...FILTERS, ...(alerts ? ALERT_FILTERS : [])]
        .filter(([name]) => !(name === 'concessionaire' && me.concessionaire))
        .map(([name, label]) =>
          CHOICES[name]
            ? html`<p>
                <label for="f-${name}">${label}</label>
                <select id="f-${name}" name="${name}">
                  <option value="">any</option>
                  ${CHOICES[name].map(
                    (s) => html`<option${f[name] === s ? html` selected` : ''}>${s}</option>`,
                  )}
                </select>
              </p>`
            : html`<p>
                <label for="f-${name}">${label}</label>
                <input
                  id="f-${name}"
                  name="${name}"
                  value="${f[name] ?? ''}"
                  maxlength="200"
                  ${name === 'from' || name === 'to' ? html` placeholder="2025-11-20 or 2025-11-20T14:03"` : ''}
                />
              </p>`,
        )}
    </div>
    <p><button type="submit">Search</button> <a href="${action}">Clear</a></p>
  </form>`;
}

const severityBadge = (s: string) => html`<span class="badge sev-${s}">${s}</span>`;
export const statusBadge = (s: AlertStateJson) =>
  html`<span class="badge status-${s.status}" data-testid="status">${s.status}</span>${
      s.reopened ? html` <small>(reopened ${s.reopened}×)</small>` : ''
    }`;

const roundLink = (roundId: string | null) =>
  roundId ? html`<a href="${UI_PREFIX}/rounds/${encodeURIComponent(roundId)}">${roundId}</a>` : '—';

function pager(action: string, f: Filters, p: Page<unknown>, shown: number): Html {
  return html`<p class="pager">
    ${shown} shown of ${p.total}.
    ${
      p.nextCursor
        ? html`<a rel="next" href="${action}${query({ ...f, cursor: p.nextCursor })}">Next page</a>`
        : ''
    }
  </p>`;
}

export function alertInbox(
  me: Me,
  f: Filters,
  p: Page<{ alertId: string; finding: FindingJson; state: AlertStateJson }>,
): Html {
  const action = `${UI_PREFIX}/alerts`;
  return page({
    title: 'Alert inbox',
    me,
    section: 'alerts',
    body: html`<h1>Alert inbox</h1>
      <p>
        Findings that need work (not handled at the table), newest
        first${me.concessionaire ? `, of ${me.concessionaire}` : ''}.
      </p>
      ${filterForm(action, f, me, true)}
      ${scopeNoticeFor(
        f,
        p.items.map((x) => x.finding),
      )}
      <table class="list" data-testid="alerts">
        <caption>
          Alerts (${p.total})
        </caption>
        <thead>
          <tr>
            <th scope="col">Time (Macau, UTC+8)</th>
            <th scope="col">Status</th>
            <th scope="col">Assignee</th>
            <th scope="col">Severity</th>
            <th scope="col">Check</th>
            <th scope="col">Table</th>
            <th scope="col">Round</th>
            <th scope="col">Summary</th>
          </tr>
        </thead>
        <tbody>
          ${p.items.map(
            ({ alertId, finding: x, state }) =>
              html`<tr>
                <td>${macauTimeCell(x.eventTime)}</td>
                <td>${statusBadge(state)}</td>
                <td>${state.assignee ?? '—'}</td>
                <td>${severityBadge(x.severity)}</td>
                <td><a href="${UI_PREFIX}/alerts/${encodeURIComponent(alertId)}">${x.checkId}</a></td>
                <td>${x.tableId}<br /><small>${x.casino}</small></td>
                <td>${roundLink(x.roundId)}</td>
                <td>${x.summary}</td>
              </tr>`,
          )}
        </tbody>
      </table>
      ${pager(action, f, p, p.items.length)}`,
  });
}

/** What GET /v1/findings/counts answers. */
export interface Counts {
  readonly by: string;
  readonly total: number;
  readonly counts: { value: string | null; count: number }[];
}

export function incidentSearch(
  me: Me,
  f: Filters,
  p: Page<FindingJson>,
  charts: { overTime: ChartJson; discrepancies: ChartJson } | { unavailable: string },
  byCheck: Counts,
): Html {
  const action = `${UI_PREFIX}/incidents`;
  return page({
    title: 'Incident search',
    me,
    section: 'incidents',
    body: html`<h1>Incident search</h1>
      <p>
        Every finding, handled at the table or not, newest
        first${me.concessionaire ? `, of ${me.concessionaire}` : ''}.
      </p>
      ${filterForm(action, f, me)} ${scopeNoticeFor(f, p.items)}
      <section aria-labelledby="charts-heading" class="charts">
        <h2 id="charts-heading">Charts</h2>
        ${
          'unavailable' in charts
            ? html`<p class="note" data-testid="charts-unavailable">${charts.unavailable}</p>`
            : html`<p class="note">
                  The same queries as the DICJ overview dashboard's panels, run by the API on
                  ${charts.overTime.source} for ${me.concessionaire ?? 'every concessionaire'}, from
                  ${charts.overTime.fromMacau} to
                  ${charts.overTime.toMacau}${f.from && f.to ? '' : ' (the span of the findings, at most 31 days; give From and To for another)'}.
                  The other filters do not apply to these two charts.
                </p>
                ${seriesChart(charts.overTime, `${charts.overTime.panel.title} (findings)`, 'chart-over-time', String)}
                ${seriesChart(charts.discrepancies, `${charts.discrepancies.panel.title} (MOP)`, 'chart-discrepancies', mop)}`
        }
        ${barChart(
          byCheck.counts.slice(0, 15).map((c) => ({
            label: c.value ?? '(none)',
            value: c.count,
            shown: String(c.count),
            ...(c.value ? { href: `${action}${query({ ...f, checkId: c.value })}` } : {}),
          })),
          `Findings by check (all ${byCheck.total}, counted by the API${byCheck.counts.length > 15 ? '; the 15 most frequent' : ''})`,
          'chart-by-check',
        )}
      </section>
      <table class="list" data-testid="findings">
        <caption>
          Findings (${p.total})
        </caption>
        <thead>
          <tr>
            <th scope="col">Time (Macau, UTC+8)</th>
            <th scope="col">Severity</th>
            <th scope="col">Check</th>
            <th scope="col">Table</th>
            <th scope="col">Round</th>
            <th scope="col">Summary</th>
            <th scope="col">Handled at the table</th>
            <th scope="col">Cites</th>
          </tr>
        </thead>
        <tbody>
          ${p.items.map(
            (x) =>
              html`<tr>
                <td>${macauTimeCell(x.eventTime)}</td>
                <td>${severityBadge(x.severity)}</td>
                <td>
                  ${x.handled ? x.checkId : html`<a href="${UI_PREFIX}/alerts/${encodeURIComponent(x.findingId)}">${x.checkId}</a>`}
                </td>
                <td>${x.tableId}<br /><small>${x.casino}</small></td>
                <td>${roundLink(x.roundId)}</td>
                <td>${x.summary}</td>
                <td>${x.handled ? 'yes' : 'no'}</td>
                <td><small>${x.citations.map((c) => c.reference).join('; ')}</small></td>
              </tr>`,
          )}
        </tbody>
      </table>
      ${pager(action, f, p, p.items.length)}`,
  });
}
