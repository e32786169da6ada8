/**
 * HTML as text, escaped by default: `html` interpolates strings escaped and Html values as they are, so a value
 * from the store (a comment, a summary, an id) can never become markup.
 */

export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

type Part = Html | string | number | boolean | null | undefined | readonly Part[];

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

const render = (part: Part): string => {
  if (part instanceof Html) return part.text;
  if (Array.isArray(part)) return part.map(render).join('');
  if (part === null || part === undefined || part === false) return '';
  return escapeHtml(String(part));
};

/** A template whose interpolations are escaped unless they are Html (null, undefined and false print nothing). */
export function html(strings: TemplateStringsArray, ...values: Part[]): Html {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += render(values[i] as Part) + strings[i + 1]!;
  return new Html(out);
}

/** Text known to be markup (the UI's own constants). */
export const raw = (text: string): Html => new Html(text);

/** A query string from the entries that have a value ("?a=1&b=x"), or "" when none has. */
export function query(params: Record<string, string | number | null | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params))
    if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  const text = q.toString();
  return text ? `?${text}` : '';
}
