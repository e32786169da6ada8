import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import {
  citationKey,
  formatCards,
  formatCitation,
  formatMop,
  parseCard,
  parseMacauDate,
  ruleSetFor,
  f3cpRules,
  settleF3cpRound,
  type F3cpBets,
  type F3cpRoundFacts,
  type F3cpSettlement,
  type F3cpRuleSet,
  F3CP_CHECKS,
} from '@table-audit/rules';
import { parseJsonWithPlaces, type Place } from '../json-input.ts';
import { drained, json, out, UsageError, type Command } from './command.ts';

const BET_KEYS = ['ante', 'play', 'pairPlus', 'sixCardBonus', 'progressive'] as const;
const ROUND_KEYS = ['id', 'date', 'seats', 'banker', 'community', 'jackpot', 'voided'];
const SEAT_KEYS = ['seat', 'cards', 'bets', 'decision'];

const usage = `Usage: table-audit settle FILE.json [--rules ID] [--json]

Settles the rounds in FILE.json with the rules engine and prints every bet's outcome with its article. The file:
  { "rounds": [ { "id": "r1", "date": "2025-11-20",
                  "seats": [ { "seat": 1, "cards": ["Qh","6d","4c"], "decision": "play",
                               "bets": { "ante": 10000, "play": 10000, "pairPlus": 5000 } } ],
                  "banker": ["Ks","9d","2c"],
                  "community": ["Ah","Kh"],                   (only with Progressive bets)
                  "jackpot": { "poolBefore": 25000000, "config": { … } } } ] }
Amounts are avos (1/100 MOP), shown as MOP. Bets: ${BET_KEYS.join(', ')}. The rule set comes from --rules, or
from each round's "date" (a Macau local date, YYYY-MM-DD). A round that cannot be settled is reported on stderr
with its place in the file, and the others go on; a Play that differs from the Ante is reported as
${F3CP_CHECKS.playNotEqualAnte.id}. --json writes one result per round, as each is settled.
Exit 0 when every round settled without a finding, 1 when a round was rejected or has a finding, 2 usage error.`;

type Json = Record<string, unknown>;
const isObject = (x: unknown): x is Json => typeof x === 'object' && x !== null && !Array.isArray(x);
const shown = (x: unknown): string => (x === undefined ? 'nothing' : JSON.stringify(x));

/** A round that cannot be settled: the message says which part and why. */
class RoundRejected extends Error {
  override readonly name = 'RoundRejected';
}

function unknownKeys(o: Json, allowed: readonly string[], where: string, what: string): void {
  for (const k of Object.keys(o))
    if (!allowed.includes(k))
      throw new RoundRejected(`${where}: unknown ${what} "${k}"; the ${what}s are ${allowed.join(', ')}`);
}

function cardList(x: unknown, where: string): number[] {
  if (!Array.isArray(x) || !x.every((c) => typeof c === 'string'))
    throw new RoundRejected(`${where}: expected a list of cards such as ["Qh","6d","4c"], got ${shown(x)}`);
  try {
    return x.map(parseCard);
  } catch (e) {
    throw new RoundRejected(`${where}: ${(e as Error).message}`);
  }
}

/** The settlement facts of one round of the input file; `where` names the round and its place. */
export function parseRound(r: unknown, where: string): F3cpRoundFacts {
  if (!isObject(r))
    throw new RoundRejected(
      `${where}: the round is ${shown(r)}; each round is an object with "seats" and "banker"`,
    );
  unknownKeys(r, ROUND_KEYS, where, 'round field');
  if (!Array.isArray(r.seats))
    throw new RoundRejected(`${where}: "seats" must be a list, got ${shown(r.seats)}`);
  const seats = r.seats.map((s: unknown, k) => {
    const at = `${where}, seats[${k}]`;
    if (!isObject(s)) throw new RoundRejected(`${at}: a seat is an object with "seat", "cards" and "bets"`);
    unknownKeys(s, SEAT_KEYS, at, 'seat field');
    const seatAt = typeof s.seat === 'number' ? `${where}, seat ${s.seat}` : at;
    const bets = s.bets ?? {};
    if (!isObject(bets)) throw new RoundRejected(`${seatAt}: "bets" must be an object, got ${shown(bets)}`);
    unknownKeys(bets, BET_KEYS, seatAt, 'bet');
    for (const [k, v] of Object.entries(bets))
      if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0)
        throw new RoundRejected(
          `${seatAt}: bet "${k}" must be a whole, non-negative number of avos (1/100 MOP), got ${shown(v)}`,
        );
    if (s.decision !== undefined && s.decision !== 'play' && s.decision !== 'fold')
      throw new RoundRejected(`${seatAt}: "decision" must be "play" or "fold", got ${shown(s.decision)}`);
    return {
      seat: s.seat as number,
      cards: cardList(s.cards, `${seatAt}, cards`),
      bets: bets as F3cpBets,
      ...(s.decision ? { decision: s.decision as 'play' | 'fold' } : {}),
    };
  });
  return {
    seats,
    banker: cardList(r.banker, `${where}, banker`),
    ...(r.community !== undefined ? { community: cardList(r.community, `${where}, community cards`) } : {}),
    ...(r.jackpot !== undefined ? { jackpot: r.jackpot as NonNullable<F3cpRoundFacts['jackpot']> } : {}),
    ...(r.voided !== undefined ? { voided: r.voided as NonNullable<F3cpRoundFacts['voided']> } : {}),
  };
}

interface SettleFinding {
  checkId: string;
  severity: string;
  seat: number;
  summary: string;
  citations: { key: string; reference: string }[];
}

/** What settling cannot see but the replay would flag: a Play that is not equal to the Ante (art. 12.º n.º 2). */
function findingsOf(facts: F3cpRoundFacts): SettleFinding[] {
  const check = F3CP_CHECKS.playNotEqualAnte;
  return facts.seats
    .filter((s) => (s.bets.play ?? 0) > 0 && s.bets.play !== (s.bets.ante ?? 0))
    .map((s) => ({
      checkId: check.id,
      severity: check.severity,
      seat: s.seat,
      summary: `seat ${s.seat}: Play ${formatMop(s.bets.play!)} is not equal to the Ante ${formatMop(s.bets.ante ?? 0)}`,
      citations: check.citations.map((c) => ({ key: citationKey(c), reference: formatCitation(c) })),
    }));
}

export function settlementText(s: F3cpSettlement): string {
  const lines = [
    `rule set ${s.ruleSetId}${s.voided ? `; round VOID (${s.voided})` : ''}`,
    `banker ${formatCards(s.banker.cards).join(' ')}: ${s.banker.hand}, ${s.banker.qualifies ? 'qualifies (Q or higher)' : 'does not qualify'}`,
  ];
  for (const seat of s.seats) {
    lines.push(
      `seat ${seat.seat} ${formatCards(seat.cards).join(' ')}: ${seat.hand}${seat.decision ? `, ${seat.decision}` : ''}${seat.versusBanker ? `, ${seat.versusBanker} than the banker` : ''}`,
    );
    for (const l of s.lines.filter((x) => x.seat === seat.seat)) {
      lines.push(
        `  ${l.bet.padEnd(13)} ${formatMop(l.amount).padStart(14)}  ${l.outcome.padEnd(4)}  net ${formatMop(l.net).padStart(15)}  ${l.basis}`,
      );
      lines.push(
        `  ${''.padEnd(13)} ${l.citations.map(formatCitation).join('; ')}${l.interpretations.length ? ` [${l.interpretations.join(', ')}]` : ''}`,
      );
    }
  }
  if (s.jackpot) {
    lines.push(
      `jackpot pool ${formatMop(s.jackpot.poolBefore)} → ${formatMop(s.jackpot.poolAfter)}${s.jackpot.communityRevealed ? '' : ' (community cards not revealed: no Progressive bet)'}`,
    );
    for (const p of s.jackpot.payments)
      lines.push(
        `  ${p.order}. seat ${p.seat} ${p.hand}: ${formatMop(p.amount)} (pool ${formatMop(p.poolBefore)} → ${formatMop(p.poolAfter)}${p.poolReset ? ', reset' : ''})`,
      );
  }
  lines.push(`interpretations used: ${s.interpretations.join(', ') || 'none'}`);
  return lines.join('\n');
}

export const settleCommand: Command = {
  name: 'settle',
  summary: 'settle rounds described in a JSON file, with the article behind every line',
  usage,
  async run(args) {
    const { values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      options: { rules: { type: 'string' }, json: { type: 'boolean' } },
    });
    if (positionals.length !== 1) throw new UsageError('name one JSON file');
    const file = positionals[0]!;
    let fixed: F3cpRuleSet | undefined;
    if (values.rules !== undefined) {
      try {
        fixed = f3cpRules(values.rules);
      } catch (e) {
        throw new UsageError(`--rules: ${(e as Error).message}`);
      }
    }
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (e) {
      throw new Error(`cannot read ${file}: ${(e as Error).message}`);
    }
    const { value: doc, places } = parseJsonWithPlaces(text, file, 'rounds');
    if (!isObject(doc) || !Array.isArray(doc.rounds))
      throw new Error(`${file}: expected an object with a "rounds" list, e.g. { "rounds": [ … ] }`);
    const rounds: unknown[] = doc.rounds;

    let rejected = 0;
    let withFindings = 0;
    if (values.json) out('[');
    // one round at a time, written as soon as it is settled: the output of a large file is never held whole
    for (let i = 0; i < rounds.length; i++) {
      const r = rounds[i];
      const place: Place | undefined = places[i];
      const id = isObject(r) && (typeof r.id === 'string' || typeof r.id === 'number') ? String(r.id) : null;
      const where = `${file} round ${id === null ? `#${i + 1}` : `"${id}"`} (rounds[${i}]${place ? `, line ${place.line}` : ''})`;
      let result: Json;
      try {
        let rules = fixed;
        if (!rules) {
          if (!isObject(r))
            throw new RoundRejected(
              `${where}: the round is ${shown(r)}; each round is an object with "seats" and "banker"`,
            );
          if (r.date === undefined)
            throw new RoundRejected(
              `${where}: give the round a "date" (Macau local, YYYY-MM-DD) or pass --rules`,
            );
          let date: string;
          try {
            date = parseMacauDate(r.date, `${where}, "date"`);
          } catch (e) {
            throw new RoundRejected((e as Error).message);
          }
          const found = ruleSetFor('f3cp', date);
          if (found.status !== 'implemented') throw new RoundRejected(`${where}: ${found.reason}`);
          rules = found.rules;
        }
        const facts = parseRound(r, where);
        let settlement: F3cpSettlement;
        try {
          settlement = settleF3cpRound(facts, rules);
        } catch (e) {
          throw new RoundRejected(`${where}: ${(e as Error).message}`);
        }
        const findings = findingsOf(facts);
        if (findings.length) withFindings++;
        result = { index: i, line: place?.line ?? null, id, settlement, findings };
        if (!values.json) {
          const found = findings.map(
            (f) =>
              `finding ${f.checkId} (${f.severity}): ${f.summary} — ${f.citations.map((c) => c.reference).join('; ')}`,
          );
          out(`${where}\n${settlementText(settlement)}${found.length ? `\n${found.join('\n')}` : ''}\n`);
        }
      } catch (e) {
        if (!(e instanceof RoundRejected)) throw e;
        rejected++;
        process.stderr.write(`table-audit settle: ${e.message}\n`);
        result = { index: i, line: place?.line ?? null, id, error: e.message };
      }
      if (values.json) out(`${json(result).replace(/^/gm, '  ')}${i < rounds.length - 1 ? ',' : ''}`);
      await drained();
    }
    if (values.json) out(']');
    if (rejected || withFindings)
      process.stderr.write(
        `table-audit settle: ${rounds.length - rejected} of ${rounds.length} rounds settled; ${rejected} rejected; ${withFindings} with findings\n`,
      );
    return rejected || withFindings ? 1 : 0;
  },
};
