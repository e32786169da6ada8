/**
 * The alert workflow as a pure decider (emmett's decide/evolve): an alert is a finding to work (handled = false;
 * its id is the finding's id); its state is the fold of the events of its stream `alert-<finding id>`; a command
 * is decided against that state into one new event, or refused. Nothing here reads or writes: the route does.
 */
import type {
  AlertAcknowledged,
  AlertAssigned,
  AlertCommented,
  AlertDisposition,
  AlertReopened,
  AlertResolved,
} from '@table-audit/schemas/events';
import type { CallerRole, Principal } from './auth.ts';

export const alertStream = (alertId: string): string => `alert-${alertId}`;

export type AlertEvent =
  | { type: 'AlertAcknowledged'; data: AlertAcknowledged }
  | { type: 'AlertAssigned'; data: AlertAssigned }
  | { type: 'AlertCommented'; data: AlertCommented }
  | { type: 'AlertResolved'; data: AlertResolved }
  | { type: 'AlertReopened'; data: AlertReopened };
export type AlertEventType = AlertEvent['type'];
export const ALERT_EVENT_TYPES: ReadonlySet<string> = new Set<AlertEventType>([
  'AlertAcknowledged',
  'AlertAssigned',
  'AlertCommented',
  'AlertResolved',
  'AlertReopened',
]);

export type AlertStatus = 'open' | 'acknowledged' | 'resolved';
/** The dispositions a caller may give (UNKNOWN is only what an old reader reads). */
export const DISPOSITIONS = ['confirmed', 'false_positive', 'referred'] as const;

export interface AlertState {
  readonly status: AlertStatus;
  readonly assignee: string | null;
  readonly disposition: AlertDisposition | null;
  /** how many times it was resolved and reopened */
  readonly reopened: number;
  readonly lastChangedAt: number | null;
  readonly lastChangedBy: string | null;
}

export const initialAlertState: AlertState = {
  status: 'open',
  assignee: null,
  disposition: null,
  reopened: 0,
  lastChangedAt: null,
  lastChangedBy: null,
};

export function evolve(state: AlertState, e: AlertEvent): AlertState {
  const changed = { lastChangedAt: e.data.time, lastChangedBy: e.data.actorSubject };
  switch (e.type) {
    case 'AlertAcknowledged':
      return { ...state, ...changed, status: 'acknowledged' };
    case 'AlertAssigned':
      return { ...state, ...changed, assignee: e.data.assignee };
    case 'AlertCommented':
      return { ...state, ...changed };
    case 'AlertResolved':
      return { ...state, ...changed, status: 'resolved', disposition: e.data.disposition };
    case 'AlertReopened':
      return { ...state, ...changed, status: 'open', disposition: null, reopened: state.reopened + 1 };
  }
}

export const foldAlert = (events: Iterable<AlertEvent>): AlertState => {
  let s = initialAlertState;
  for (const e of events) s = evolve(s, e);
  return s;
};

export type AlertCommand =
  | { kind: 'acknowledge'; note: string | null }
  | { kind: 'assign'; assignee: string | null }
  | { kind: 'comment'; comment: string }
  | { kind: 'resolve'; disposition: (typeof DISPOSITIONS)[number]; comment: string }
  | { kind: 'reopen'; reason: string };
export type AlertCommandKind = AlertCommand['kind'];

/** A command that the alert's state or the caller's role does not allow. */
export class AlertCommandRefused extends Error {
  override readonly name = 'AlertCommandRefused';
  constructor(
    /** 'forbidden': the role may not (403); 'conflict': not from this state (409) */
    readonly reason: 'forbidden' | 'conflict',
    message: string,
  ) {
    super(message);
  }
}

/**
 * Who may do what: a compliance officer works their concessionaire's alerts (every command); a DICJ inspector
 * reads and annotates (comments); an auditor or a machine only reads. Scope is checked before, by the route.
 */
export const ALLOWED_COMMANDS: Readonly<Record<CallerRole, readonly AlertCommandKind[]>> = {
  compliance_officer: ['acknowledge', 'assign', 'comment', 'resolve', 'reopen'],
  inspector: ['comment'],
  auditor: [],
  machine: [],
};

export interface CommandContext {
  readonly alertId: string;
  readonly actor: Principal;
  readonly time: number;
  readonly requestId: string;
}

/** The event a command gives in a state, or AlertCommandRefused saying why not. */
export function decide(state: AlertState, command: AlertCommand, ctx: CommandContext): AlertEvent {
  const allowed = ALLOWED_COMMANDS[ctx.actor.role];
  if (!allowed.includes(command.kind))
    throw new AlertCommandRefused(
      'forbidden',
      `a caller with the role ${ctx.actor.role} may not ${command.kind} an alert${
        allowed.length ? ` (only ${allowed.join(', ')})` : ' (read-only)'
      }`,
    );
  const base = {
    alertId: ctx.alertId,
    actorSubject: ctx.actor.subject,
    actorRole: ctx.actor.role,
    actorConcessionaire: ctx.actor.concessionaire,
    time: ctx.time,
    requestId: ctx.requestId,
  };
  const refuse = (why: string): never => {
    throw new AlertCommandRefused('conflict', `cannot ${command.kind} alert ${ctx.alertId}: ${why}`);
  };
  switch (command.kind) {
    case 'acknowledge':
      if (state.status !== 'open') refuse(`it is ${state.status}, only an open alert can be acknowledged`);
      return { type: 'AlertAcknowledged', data: { ...base, note: command.note } };
    case 'assign':
      if (state.status === 'resolved') refuse('it is resolved; reopen it first');
      if (state.assignee === command.assignee)
        refuse(
          command.assignee === null ? 'it is not assigned' : `it is already assigned to ${command.assignee}`,
        );
      return { type: 'AlertAssigned', data: { ...base, assignee: command.assignee } };
    case 'comment':
      return { type: 'AlertCommented', data: { ...base, comment: command.comment } };
    case 'resolve':
      if (state.status === 'resolved')
        refuse(`it is already resolved (${state.disposition ?? 'no disposition'})`);
      return {
        type: 'AlertResolved',
        data: { ...base, disposition: command.disposition, comment: command.comment },
      };
    case 'reopen':
      if (state.status !== 'resolved') refuse(`it is ${state.status}, only a resolved alert can be reopened`);
      return { type: 'AlertReopened', data: { ...base, reason: command.reason } };
  }
}
