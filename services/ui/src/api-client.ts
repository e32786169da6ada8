/**
 * The UI reads and writes only through the API's own /v1 routes (Fastify's inject, in process), with the caller's
 * token: authentication, roles, tenancy and access recording stay the API's, and the UI cannot see more than the
 * caller could with curl. These are the shapes of the JSON it reads (see /openapi.json).
 */
import type { FastifyInstance } from 'fastify';
import type { CallerRole, ReplayResponse } from '@table-audit/api';

export interface Me {
  readonly subject: string;
  readonly role: CallerRole;
  readonly concessionaire: string | null;
}

export interface Citation {
  readonly key: string;
  readonly reference: string;
}

export interface FindingJson {
  readonly findingId: string;
  readonly checkId: string;
  readonly title: string;
  readonly severity: string;
  readonly ruleSet: string;
  readonly casino: string;
  readonly concessionaire: string;
  readonly tableId: string;
  readonly roundId: string | null;
  readonly game: string | null;
  readonly dealerId: string | null;
  readonly seats: number[];
  readonly players: string[];
  readonly summary: string;
  readonly handled: boolean;
  readonly expected: unknown;
  readonly declared: unknown;
  readonly citations: Citation[];
  readonly interpretations: string[];
  readonly evidenceEventIds: string[];
  readonly eventTime: number;
  readonly eventTimeMacau: string;
}

export interface AlertStateJson {
  readonly status: 'open' | 'acknowledged' | 'resolved';
  readonly assignee: string | null;
  readonly disposition: string | null;
  readonly reopened: number;
  readonly lastChangedAt: number | null;
  readonly lastChangedBy: string | null;
  readonly revision: number;
}

export interface AlertJson {
  readonly alertId: string;
  readonly finding: FindingJson;
  readonly state: AlertStateJson;
  readonly history: { type: string; revision: number; data: Record<string, unknown>; hash: string }[];
}

export interface Page<T> {
  readonly items: T[];
  readonly total: number;
  readonly nextCursor: string | null;
}

export interface Provision {
  readonly key: string;
  readonly reference: string;
  readonly pt: string | null;
  readonly zh: string | null;
}

export interface InterpretationJson {
  readonly id: string;
  readonly question: string | null;
  readonly reading: string | null;
  readonly alternative: string | null;
}

/** The disputed hand as the API answers it (its response schema; the derivation is the rules' Explanation). */
export type ReplayJson = ReplayResponse;

/** What the API answered: its status and JSON body (an error body has statusCode, error and message). */
export type ApiAnswer<T> =
  | { readonly ok: true; readonly status: number; readonly body: T }
  | { readonly ok: false; readonly status: number; readonly message: string };

export class ApiClient {
  constructor(
    private readonly app: FastifyInstance,
    private readonly token: string,
  ) {}

  /** A download (an evidence bundle or its PDF) as the API answered it: status, headers and bytes. */
  async download(path: string) {
    const res = await this.app.inject({
      method: 'GET',
      url: path,
      headers: { authorization: `Bearer ${this.token}` },
    });
    return { status: res.statusCode, headers: res.headers, body: res.rawPayload };
  }

  async get<T>(path: string): Promise<ApiAnswer<T>> {
    return this.#call<T>('GET', path);
  }

  async post<T>(path: string, body: unknown): Promise<ApiAnswer<T>> {
    return this.#call<T>('POST', path, body);
  }

  async delete<T>(path: string): Promise<ApiAnswer<T>> {
    return this.#call<T>('DELETE', path);
  }

  async #call<T>(method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown): Promise<ApiAnswer<T>> {
    const res = await this.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${this.token}` },
      ...(body === undefined ? {} : { payload: body as object }),
    });
    let json: unknown;
    try {
      json = JSON.parse(res.body);
    } catch {
      json = null;
    }
    if (res.statusCode < 400) return { ok: true, status: res.statusCode, body: json as T };
    const message =
      json !== null && typeof json === 'object' && typeof (json as { message?: unknown }).message === 'string'
        ? (json as { message: string }).message
        : `the API answered ${res.statusCode} to ${method} ${url}`;
    return { ok: false, status: res.statusCode, message };
  }
}
