/** The page shell every page shares, and the small formatting helpers the pages use. */
import { formatMacauTime, formatMop } from '@table-audit/rules';
import type { Me } from './api-client.ts';
import { html, type Html } from './html.ts';

export const UI_PREFIX = '/ui';

const ROLE_NAMES: Record<string, string> = {
  inspector: 'DICJ inspector',
  compliance_officer: 'compliance officer',
  auditor: 'auditor',
  machine: 'machine',
};
export const roleName = (role: string): string => ROLE_NAMES[role] ?? role;

/** "2025-12-01 12:17:22.314" — for cells under a heading that says "Macau time (UTC+8)". */
export const macauClock = (utcMs: number): string => formatMacauTime(utcMs).slice(0, 23);

/** A time element: Macau time as text, the UTC instant in datetime. */
export const macauTimeCell = (utcMs: number): Html =>
  html`<time datetime="${new Date(utcMs).toISOString()}">${macauClock(utcMs)}</time>`;

export const mop = (avos: number): string => formatMop(avos);

/** Links to download the evidence of a round or an alert from the API (JSON bundle, checkable offline; PDF). */
export const evidenceLinks = (kind: 'rounds' | 'alerts', id: string): Html => {
  const href = `${UI_PREFIX}/${kind}/${encodeURIComponent(id)}/evidence`;
  return html`<p class="evidence-links">
    Evidence: <a href="${href}?format=json" download data-testid="evidence-json">JSON bundle</a> ·
    <a href="${href}?format=pdf" download data-testid="evidence-pdf">PDF</a>
  </p>`;
};

export interface PageOptions {
  readonly title: string;
  readonly me: Me | null;
  /** which top-level section is current (for aria-current) */
  readonly section?: 'alerts' | 'incidents' | 'round' | 'login' | 'what-if';
  readonly body: Html;
}

export function page(o: PageOptions): Html {
  const nav = (href: string, label: string, section: PageOptions['section']) =>
    html`<a href="${UI_PREFIX}${href}" ${o.section === section ? html` aria-current="page"` : ''}
      >${label}</a
    >`;
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${o.title} — table-audit</title>
        <link rel="stylesheet" href="${UI_PREFIX}/assets/ui.css" />
        <script type="module" src="${UI_PREFIX}/assets/ui.js"></script>
      </head>
      <body>
        <header class="top">
          <p class="brand"><a href="${UI_PREFIX}/">table-audit</a></p>
          ${
            o.me
              ? html`<nav aria-label="Sections">
                    ${nav('/alerts', 'Alert inbox', 'alerts')}
                    ${nav('/incidents', 'Incident search', 'incidents')}
                    ${nav('/what-if', 'What-if', 'what-if')}
                    <form class="round-jump" method="get" action="${UI_PREFIX}/rounds" role="search">
                      <label for="round-jump">Round id</label>
                      <input
                        id="round-jump"
                        name="roundId"
                        required
                        maxlength="200"
                        placeholder="e.g. MAC-F3CP-001-R00003"
                      />
                      <button type="submit">Open round</button>
                    </form>
                  </nav>
                  <div class="who">
                    <span data-testid="who"
                      >${o.me.subject} · ${roleName(o.me.role)} ·
                      ${o.me.concessionaire ?? 'every concessionaire'}</span
                    >
                    <form method="post" action="${UI_PREFIX}/logout">
                      <button type="submit">Log out</button>
                    </form>
                  </div>`
              : ''
          }
        </header>
        <main id="main">${o.body}</main>
        <footer>
          <p>Money in MOP (the API carries integer avos, 1/100 MOP). Times in Macau time (UTC+8).</p>
        </footer>
      </body>
    </html>`;
}

/** An error page: the status, what the API said, and where to go from here. */
export function errorPage(me: Me | null, status: number, message: string): Html {
  const heading =
    status === 404
      ? 'Not found'
      : status === 403
        ? 'Not allowed'
        : status === 400
          ? 'Bad request'
          : status === 409
            ? 'Conflict'
            : 'Something went wrong';
  return page({
    title: `${status} ${heading}`,
    me,
    body: html`<h1>${heading}</h1>
      <p class="error" role="alert" data-testid="error-message">${message}</p>
      <p>
        ${
          status === 404 && me?.concessionaire
            ? `You see the data of ${me.concessionaire} only; anything else is not found for you. `
            : ''
        }<a href="${UI_PREFIX}/alerts">Back to the alert inbox</a>.
      </p>`,
  });
}
