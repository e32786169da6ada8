/** The alert inbox and the incident search: a filter form, a findings table, paging, and charts. */
import type { AlertStateJson, FindingJson, Me, Page } from '../api-client.ts';
import {
  barChart,
  findingsOverTime,
  SEVERITIES,
  type Bar,
  type PeriodCount,
  type PeriodUnit,
} from '../charts.ts';
import { html, query, type Html } from '../html.ts';
import { macauClock, macauTimeCell, mop, page, UI_PREFIX } from '../layout.ts';

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
export type FilterName = (typeof FILTERS)[number][0];
export type Filters = Partial<Record<FilterName, string>>;

/** The filters given in a query string, each trimmed and bounded; unknown parameters are not passed on. */
export function filtersOf(q: Record<string, unknown>): Filters {
  const out: Filters = {};
  for (const [name] of FILTERS) {
    const v = q[name];
    if (typeof v === 'string' && v.trim() !== '') out[name] = v.trim().slice(0, 200);
  }
  return out;
}

function filterForm(action: string, f: Filters, me: Me): Html {
  return html`<form class="filters" method="get" action="${action}" aria-labelledby="filters-heading">
    <h2 id="filters-heading">Filters</h2>
    <div class="fields">
      ${FILTERS.filter(([name]) => !(name === 'concessionaire' && me.concessionaire)).map(([name, label]) =>
        name === 'severity'
          ? html`<p>
              <label for="f-${name}">${label}</label>
              <select id="f-${name}" name="${name}">
                <option value="">any</option>
                ${SEVERITIES.map(
                  (s) => html`<option${f.severity === s ? html` selected` : ''}>${s}</option>`,
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
      ${filterForm(action, f, me)}
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

/**
 * The amount a finding says was paid wrongly: |declared − expected| when both state a `payout` or an `amount`
 * in avos (payout mismatches, jackpot amounts); null for findings about something other than money paid.
 */
export function discrepancyAvos(x: Pick<FindingJson, 'expected' | 'declared'>): number | null {
  const e = x.expected as Record<string, unknown> | null;
  const d = x.declared as Record<string, unknown> | null;
  if (!e || !d || typeof e !== 'object' || typeof d !== 'object') return null;
  for (const k of ['payout', 'amount']) {
    const a = e[k];
    const b = d[k];
    if (Number.isSafeInteger(a) && Number.isSafeInteger(b) && a !== b)
      return Math.abs((b as number) - (a as number));
  }
  return null;
}

/** the most periods drawn with the empty ones among them (two months of days, or 62 hours) */
export const MAX_CONTINUOUS_PERIODS = 62;

/**
 * Findings per Macau period by severity: per hour when they fall on at most two Macau dates, else per day. Every
 * period from the first to the last is drawn, empty ones included, when there are at most MAX_CONTINUOUS_PERIODS;
 * beyond, an outlying event time (a year off is itself a finding) would squeeze every bar into a hairline, so only
 * the periods that have findings are drawn (gaps: true).
 */
export function findingsByMacauPeriod(findings: readonly Pick<FindingJson, 'eventTime' | 'severity'>[]): {
  unit: PeriodUnit;
  periods: PeriodCount[];
  gaps: boolean;
} {
  const dates = new Set(findings.map((x) => macauClock(x.eventTime).slice(0, 10)));
  const unit: PeriodUnit = dates.size <= 2 ? 'hour' : 'day';
  // "2025-12-01" or "2025-12-01 12:00", of the Macau clock; read as UTC only to step through them (no DST in Macau)
  const keyOf = (clock: string) => (unit === 'day' ? clock.slice(0, 10) : `${clock.slice(0, 13)}:00`);
  const startOf = (key: string) =>
    Date.parse(unit === 'day' ? `${key}T00:00:00Z` : `${key.replace(' ', 'T')}:00Z`);
  const step = unit === 'day' ? 86_400_000 : 3_600_000;
  const counts = new Map<string, Record<string, number>>();
  for (const x of findings) {
    const key = keyOf(macauClock(x.eventTime));
    const c = counts.get(key) ?? {};
    c[x.severity] = (c[x.severity] ?? 0) + 1;
    counts.set(key, c);
  }
  const keys = [...counts.keys()].sort();
  if (keys.length === 0) return { unit, periods: [], gaps: false };
  const first = startOf(keys[0]!);
  const last = startOf(keys.at(-1)!);
  if ((last - first) / step >= MAX_CONTINUOUS_PERIODS)
    return { unit, periods: keys.map((label) => ({ label, bySeverity: counts.get(label)! })), gaps: true };
  const periods: PeriodCount[] = [];
  for (let t = first; t <= last; t += step) {
    const label = keyOf(new Date(t).toISOString().replace('T', ' '));
    periods.push({ label, bySeverity: counts.get(label) ?? {} });
  }
  return { unit, periods, gaps: false };
}

export const CHART_SAMPLE = 1000;

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
  sample: { items: FindingJson[]; total: number },
  byCheck: Counts,
): Html {
  const action = `${UI_PREFIX}/incidents`;
  const overTime = findingsByMacauPeriod(sample.items);
  const drawn =
    sample.items.length < sample.total
      ? `the ${sample.items.length} newest of the ${sample.total} matching findings`
      : `all ${sample.total} matching findings`;
  const discrepancies: Bar[] = sample.items
    .map((x) => ({ x, avos: discrepancyAvos(x) }))
    .filter((d): d is { x: FindingJson; avos: number } => d.avos !== null)
    .sort((a, b) => b.avos - a.avos)
    .slice(0, 15)
    .map(({ x, avos }) => ({
      label: `${x.roundId ?? x.tableId} ${x.checkId.replace(/^[A-Z0-9]+\./, '')}`,
      value: avos,
      shown: mop(avos),
      ...(x.roundId ? { href: `${UI_PREFIX}/rounds/${encodeURIComponent(x.roundId)}` } : {}),
    }));
  return page({
    title: 'Incident search',
    me,
    section: 'incidents',
    body: html`<h1>Incident search</h1>
      <p>
        Every finding, handled at the table or not, newest
        first${me.concessionaire ? `, of ${me.concessionaire}` : ''}.
      </p>
      ${filterForm(action, f, me)}
      <section aria-labelledby="charts-heading" class="charts">
        <h2 id="charts-heading">Charts</h2>
        <p class="note">Drawn from ${drawn}, as the API's findings route returns them.</p>
        ${findingsOverTime(overTime.periods, overTime.unit, `Findings per ${overTime.unit} (Macau time), by severity${overTime.gaps ? `; ${overTime.unit}s without findings left out (the findings span more than ${MAX_CONTINUOUS_PERIODS} ${overTime.unit}s)` : ''}`)}
        ${barChart(discrepancies, 'Largest payment discrepancies, |declared − expected| in MOP', 'chart-discrepancies')}
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
