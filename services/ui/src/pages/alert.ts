/** One alert: its finding, its workflow state and history, and the actions the caller may take now. */
import {
  AlertCommandRefused,
  decide,
  DISPOSITIONS,
  type AlertCommand,
  type AlertCommandKind,
  type AlertState,
} from '@table-audit/api';
import type { AlertJson, Me } from '../api-client.ts';
import { html, type Html } from '../html.ts';
import { evidenceLinks, macauTimeCell, page, roleName, UI_PREFIX } from '../layout.ts';
import { statusBadge } from './findings.ts';

/** A command of each kind, to ask the API's own decider whether the form for it belongs on the page. */
const probe = (kind: AlertCommandKind, state: AlertState, me: Me): AlertCommand => {
  switch (kind) {
    case 'acknowledge':
      return { kind, note: null };
    case 'assign':
      return { kind, assignee: state.assignee === me.subject ? null : me.subject };
    case 'comment':
      return { kind, comment: '-' };
    case 'resolve':
      return { kind, disposition: 'confirmed', comment: '-' };
    case 'reopen':
      return { kind, reason: '-' };
  }
};

/** The commands the caller may give in this state, decided by the same pure decider the API runs. */
export function possibleCommands(state: AlertState, me: Me, alertId: string): AlertCommandKind[] {
  const kinds: AlertCommandKind[] = ['acknowledge', 'assign', 'comment', 'resolve', 'reopen'];
  return kinds.filter((kind) => {
    try {
      decide(state, probe(kind, state, me), { alertId, actor: me, time: 0, requestId: 'ui-probe' });
      return true;
    } catch (e) {
      if (e instanceof AlertCommandRefused) return false;
      throw e;
    }
  });
}

const textArea = (id: string, name: string, label: string, required: boolean) =>
  html`<p>
    <label for="${id}">${label}</label><br /><textarea
      id="${id}"
      name="${name}"
      rows="2"
      cols="50"
      maxlength="4000"
      ${required ? html` required` : ''}
    ></textarea>
  </p>`;

function actionForm(kind: AlertCommandKind, a: AlertJson, me: Me): Html {
  const action = `${UI_PREFIX}/alerts/${encodeURIComponent(a.alertId)}/${kind}`;
  const form = (legend: string, fields: Html | string, button: string) =>
    html`<form method="post" action="${action}" class="action" data-action="${kind}">
      <fieldset>
        <legend>${legend}</legend>
        ${fields}<button type="submit">${button}</button>
      </fieldset>
    </form>`;
  switch (kind) {
    case 'acknowledge':
      return form('Acknowledge', textArea('ack-note', 'note', 'Note (optional)', false), 'Acknowledge');
    case 'assign':
      return form(
        'Assign',
        html`<p>
          <label for="assignee">Assignee (their token subject; empty takes it back)</label><br /><input
            id="assignee"
            name="assignee"
            maxlength="200"
            value="${a.state.assignee === me.subject ? '' : me.subject}"
          />
        </p>`,
        'Assign',
      );
    case 'comment':
      return form('Comment', textArea('comment', 'comment', 'Comment', true), 'Add comment');
    case 'resolve':
      return form(
        'Resolve',
        html`<p>
            <label for="disposition">Disposition</label><br /><select id="disposition" name="disposition">
              ${DISPOSITIONS.map((d) => html`<option value="${d}">${d.replace('_', ' ')}</option>`)}
            </select>
          </p>
          ${textArea('resolve-comment', 'comment', 'Why it is resolved so', true)}`,
        'Resolve',
      );
    case 'reopen':
      return form('Reopen', textArea('reopen-reason', 'reason', 'Why it is reopened', true), 'Reopen');
  }
}

const HISTORY_DETAIL: Record<string, (d: Record<string, unknown>) => string> = {
  AlertAcknowledged: (d) => (d['note'] ? `note: ${String(d['note'])}` : ''),
  AlertAssigned: (d) => (d['assignee'] ? `to ${String(d['assignee'])}` : 'taken back (no assignee)'),
  AlertCommented: (d) => String(d['comment'] ?? ''),
  AlertResolved: (d) => `${String(d['disposition'])}: ${String(d['comment'] ?? '')}`,
  AlertReopened: (d) => String(d['reason'] ?? ''),
};

export function alertPage(me: Me, a: AlertJson, problem: string | null): Html {
  const x = a.finding;
  const s = a.state;
  const commands = possibleCommands(s as AlertState, me, a.alertId);
  return page({
    title: `Alert ${x.checkId}`,
    me,
    section: 'alerts',
    body: html`<h1>Alert: ${x.title}</h1>
      ${problem ? html`<p class="error" role="alert" data-testid="error-message">${problem}</p>` : ''}
      <dl class="facts">
        <dt>Status</dt>
        <dd>${statusBadge(s)}${s.disposition ? ` — ${s.disposition}` : ''}</dd>
        <dt>Assignee</dt>
        <dd data-testid="assignee">${s.assignee ?? 'nobody'}</dd>
        <dt>Check</dt>
        <dd>${x.checkId} (${x.severity}; rule set ${x.ruleSet})</dd>
        <dt>Where</dt>
        <dd>
          ${x.casino} (${x.concessionaire}), table ${x.tableId}${x.dealerId ? `, dealer ${x.dealerId}` : ''}
        </dd>
        <dt>Round</dt>
        <dd>
          ${x.roundId ? html`<a href="${UI_PREFIX}/rounds/${encodeURIComponent(x.roundId)}" data-testid="round-link">${x.roundId}</a>` : 'none (across rounds)'}
        </dd>
        <dt>When</dt>
        <dd>${x.eventTimeMacau}</dd>
        <dt>What</dt>
        <dd>${x.summary}</dd>
        <dt>Cites</dt>
        <dd>
          <ul>
            ${x.citations.map((c) => html`<li>${c.reference}</li>`)}
          </ul>
          ${x.interpretations.length ? html`Interpretations: ${x.interpretations.join(', ')}` : ''}
        </dd>
        <dt>Evidence export</dt>
        <dd>${evidenceLinks('alerts', a.alertId)}</dd>
        <dt>Evidence events</dt>
        <dd>${x.evidenceEventIds.join(', ') || '—'}</dd>
      </dl>
      <section aria-labelledby="work-heading">
        <h2 id="work-heading">Work this alert</h2>
        ${
          commands.length
            ? commands.map((k) => actionForm(k, a, me))
            : html`<p>
                As ${roleName(me.role)} you
                ${
                  me.role === 'inspector' || me.role === 'compliance_officer'
                    ? 'have nothing to do on it in this state'
                    : 'may only read it'
                }.
              </p>`
        }
      </section>
      <section aria-labelledby="history-heading">
        <h2 id="history-heading">History</h2>
        <table class="list" data-testid="history">
          <caption>
            Everything done on this alert, oldest first (each an event of stream alert-${a.alertId})
          </caption>
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">Time (Macau, UTC+8)</th>
              <th scope="col">What</th>
              <th scope="col">Who</th>
              <th scope="col">Detail</th>
            </tr>
          </thead>
          <tbody>
            ${a.history.map(
              (h) =>
                html`<tr>
                  <td>${h.revision}</td>
                  <td>${typeof h.data['time'] === 'number' ? macauTimeCell(h.data['time']) : '—'}</td>
                  <td>${h.type.replace(/^Alert/, '')}</td>
                  <td>
                    ${String(h.data['actorSubject'] ?? '')} (${roleName(String(h.data['actorRole'] ?? ''))})
                  </td>
                  <td>${(HISTORY_DETAIL[h.type] ?? (() => ''))(h.data)}</td>
                </tr>`,
            )}
          </tbody>
        </table>
        ${a.history.length === 0 ? html`<p>Nothing done yet.</p>` : ''}
      </section>`,
  });
}
