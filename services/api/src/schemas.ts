/**
 * The request and response schemas of the routes (TypeBox: JSON Schema with TypeScript types). Every parameter
 * is bounded; Fastify's validator names the one that is wrong ("querystring/limit must be <= 200").
 */
import { Type, type Static } from 'typebox';
import { DISPOSITIONS } from './alerts.ts';
import { COUNT_DIMENSIONS } from './findings-query.ts';
import { ScopeSchema } from './explanations.ts';

/** Ids and names: printable text without control characters, bounded. */
export const Name = (description: string) =>
  Type.String({ minLength: 1, maxLength: 200, pattern: '^[^\\u0000-\\u001f\\u007f]+$', description });

/**
 * An instant or a day in Macau time: "2025-11-20" (the day's start in Macau), "2025-11-20T14:03" or
 * "2025-11-20T14:03:07" (Macau time, UTC+8), or with an explicit offset ("…Z", "…+08:00").
 */
export const MacauTime = (description: string) =>
  Type.String({
    pattern: '^\\d{4}-\\d{2}-\\d{2}(T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,3})?)?(Z|[+-]\\d{2}:\\d{2})?)?$',
    description: `${description}: a date (its start in Macau) or date-time, Macau time (UTC+8) unless it gives Z or an offset`,
  });

export const MAX_PAGE_SIZE = 200;

export const FindingsQuerystring = Type.Object(
  {
    concessionaire: Type.Optional(Name('the concessionaire operating the casino')),
    casino: Type.Optional(Name('the casino')),
    tableId: Type.Optional(Name('the table')),
    game: Type.Optional(
      Type.String({
        pattern: '^[A-Z0-9_]{1,32}$',
        description: 'the game, as TableOpened.game names it (a Mah-Jong finding is about the deal only)',
        examples: ['F3CP', 'CRAPS', 'THIRTEEN_CARDS', 'MAHJONG'],
      }),
    ),
    checkId: Type.Optional(
      Type.String({
        pattern: '^[A-Z0-9_.]{1,100}$',
        description: 'the check',
        examples: [
          'F3CP.PAYOUT.MISMATCH',
          'CRAPS.PAYOUT.MISMATCH',
          'THIRTEEN.PAYOUT.MISMATCH',
          'MAHJONG.DEAL.ORDER',
        ],
      }),
    ),
    severity: Type.Optional(Type.Union(['critical', 'high', 'medium', 'low'].map((s) => Type.Literal(s)))),
    from: Type.Optional(MacauTime('findings at or after')),
    to: Type.Optional(MacauTime('findings before')),
    dealerId: Type.Optional(Name("the dealer of the finding's round (RoundStarted.dealerId)")),
    playerId: Type.Optional(Name('a player concerned')),
    roundId: Type.Optional(Name('the round')),
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, default: 50, description: 'page size' }),
    ),
    cursor: Type.Optional(
      Type.String({
        maxLength: 400,
        pattern: '^[A-Za-z0-9_-]+$',
        description: 'nextCursor of the previous page (opaque)',
      }),
    ),
  },
  { additionalProperties: false },
);
export type FindingsQuerystring = Static<typeof FindingsQuerystring>;

/** The alert list's filters: the findings' and the workflow state's. */
export const AlertsQuerystring = Type.Object(
  {
    ...FindingsQuerystring.properties,
    status: Type.Optional(
      Type.Union(
        ['open', 'acknowledged', 'resolved'].map((s) => Type.Literal(s)),
        { description: 'the workflow state (an alert nobody has acted on is open)' },
      ),
    ),
    assignee: Type.Optional(Name('who it is assigned to (their token subject)')),
    disposition: Type.Optional(
      Type.Union(
        DISPOSITIONS.map((d) => Type.Literal(d)),
        { description: 'how it was resolved (only resolved alerts have one)' },
      ),
    ),
  },
  { additionalProperties: false },
);
export type AlertsQuerystring = Static<typeof AlertsQuerystring>;

export const FindingsCountQuerystring = Type.Object(
  {
    ...Type.Omit(FindingsQuerystring, ['limit', 'cursor']).properties,
    by: Type.Union(
      COUNT_DIMENSIONS.map((d) => Type.Literal(d)),
      { description: 'what to count by' },
    ),
  },
  { additionalProperties: false },
);

export const FindingsCountSchema = Type.Object({
  by: Type.String(),
  total: Type.Integer(),
  counts: Type.Array(Type.Object({ value: Type.Union([Type.String(), Type.Null()]), count: Type.Integer() })),
});

const Citation = Type.Object({ key: Type.String(), reference: Type.String() });

export const FindingSchema = Type.Object(
  {
    findingId: Type.String(),
    checkId: Type.String(),
    title: Type.String(),
    severity: Type.String(),
    ruleSet: Type.String(),
    casino: Type.String(),
    concessionaire: Type.String(),
    tableId: Type.String(),
    roundId: Type.Union([Type.String(), Type.Null()]),
    game: Type.Union([Type.String(), Type.Null()]),
    dealerId: Type.Union([Type.String(), Type.Null()]),
    seats: Type.Array(Type.Integer()),
    players: Type.Array(Type.String()),
    summary: Type.String(),
    handled: Type.Boolean(),
    expected: Type.Unknown({ description: 'what the rules give (amounts in avos)' }),
    declared: Type.Unknown({ description: 'what the table declared (amounts in avos)' }),
    citations: Type.Array(Citation),
    interpretations: Type.Array(Type.String()),
    evidenceEventIds: Type.Array(Type.String()),
    eventTime: Type.Integer({ description: 'UTC milliseconds' }),
    eventTimeMacau: Type.String({ description: 'the same instant in Macau time (UTC+8)' }),
    details: Type.Optional(Type.Unknown()),
    scope: Type.Optional(ScopeSchema),
  },
  { additionalProperties: false },
);

export const FindingsPageSchema = Type.Object({
  items: Type.Array(FindingSchema),
  total: Type.Integer({ description: 'findings matching the filter, on every page' }),
  nextCursor: Type.Union([Type.String(), Type.Null()]),
});

export const AlertStateSchema = Type.Object({
  status: Type.Union([Type.Literal('open'), Type.Literal('acknowledged'), Type.Literal('resolved')]),
  assignee: Type.Union([Type.String(), Type.Null()]),
  disposition: Type.Union([Type.String(), Type.Null()]),
  reopened: Type.Integer(),
  lastChangedAt: Type.Union([Type.Integer(), Type.Null()]),
  lastChangedBy: Type.Union([Type.String(), Type.Null()]),
  revision: Type.Integer({ description: 'the revision of the last event of the alert stream (-1: none)' }),
});

export const AlertHistoryEntry = Type.Object({
  type: Type.String(),
  revision: Type.Integer(),
  data: Type.Unknown(),
  hash: Type.String(),
});

export const AlertSchema = Type.Object({
  alertId: Type.String(),
  finding: FindingSchema,
  state: AlertStateSchema,
  history: Type.Array(AlertHistoryEntry),
});

export const AlertsPageSchema = Type.Object({
  items: Type.Array(Type.Object({ alertId: Type.String(), finding: FindingSchema, state: AlertStateSchema })),
  total: Type.Integer(),
  nextCursor: Type.Union([Type.String(), Type.Null()]),
});

export const IdParams = <K extends string>(name: K, description: string) =>
  Type.Object({ [name]: Name(description) } as Record<K, ReturnType<typeof Name>>, {
    additionalProperties: false,
  });

const Text = (description: string) =>
  Type.String({
    minLength: 1,
    maxLength: 4000,
    pattern: '^[^\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f]+$',
    description,
  });

export const AlertBodies = {
  acknowledge: Type.Object({ note: Type.Optional(Text('what was noted')) }, { additionalProperties: false }),
  assign: Type.Object(
    {
      assignee: Type.Union([Name('who is to work it (their token subject)'), Type.Null()], {
        description: 'null takes the alert back',
      }),
    },
    { additionalProperties: false },
  ),
  comment: Type.Object({ comment: Text('the comment') }, { additionalProperties: false }),
  resolve: Type.Object(
    {
      disposition: Type.Union(DISPOSITIONS.map((d) => Type.Literal(d))),
      comment: Text('why it is resolved so'),
    },
    { additionalProperties: false },
  ),
  reopen: Type.Object({ reason: Text('why it is reopened') }, { additionalProperties: false }),
} as const;

export const ErrorSchema = Type.Object({
  statusCode: Type.Integer(),
  error: Type.String(),
  message: Type.String(),
});
