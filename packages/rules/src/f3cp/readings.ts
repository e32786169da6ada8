/**
 * F3CP rule set variants under alternative readings (readings.ts): the settlement reads `rules.alternatives`, so
 * a variant is the rule set with its selected keys, one frozen object per combination (the settlement caches
 * its templates by rule set object).
 */
import { ALTERNATIVE_READINGS } from '../readings.ts';
import type { F3cpRuleSet } from './rule-set.ts';

/** The F3CP alternatives a replay (or the math) can select, by key, and what each changes. */
export const F3CP_ALTERNATIVE_READINGS: Readonly<Record<string, string>> = Object.freeze(
  Object.fromEntries(ALTERNATIVE_READINGS.filter((a) => a.game === 'f3cp').map((a) => [a.key, a.effect])),
);

/** Which interpretation ids govern a rule set (the J ids the 2025 rules, the H ids the 2008 rules). */
const governs = (rules: F3cpRuleSet, id: string): boolean =>
  rules.interpretations.includes(id) || (rules.era === '2025' ? id.startsWith('J') : id.startsWith('H'));

const idOf = (key: string): string => key.split(':')[0]!;

const variants = new Map<string, F3cpRuleSet>();

function variant(rules: F3cpRuleSet, keys: readonly string[]): F3cpRuleSet {
  if (!keys.length) return rules;
  const sorted = [...new Set(keys)].sort();
  const key = `${rules.id}|${sorted.join(',')}`;
  let v = variants.get(key);
  if (!v) {
    v = Object.freeze({
      ...rules,
      title: `${rules.title} — alternative reading of ${sorted.join(', ')}`,
      suitedAceKingQueen: sorted.includes('H1') ? 'flush' : rules.suitedAceKingQueen,
      alternatives: Object.freeze(sorted),
    });
    variants.set(key, v);
  }
  return v;
}

/**
 * The rule set with the alternative reading of each key in `alternatives`. Returns the same object when nothing
 * changes. Throws on a key that is no selectable F3CP alternative or does not govern the rule set.
 */
export function withReadings(rules: F3cpRuleSet, alternatives: readonly string[]): F3cpRuleSet {
  for (const key of alternatives) {
    if (!(key in F3CP_ALTERNATIVE_READINGS))
      throw new Error(
        `interpretation ${key} has no alternative reading a replay can select; selectable: ${Object.keys(F3CP_ALTERNATIVE_READINGS).join(', ')}`,
      );
    if (!governs(rules, idOf(key)))
      throw new Error(`interpretation ${key} does not apply to rule set ${rules.id}`);
  }
  return variant(rules, alternatives);
}

/**
 * As withReadings, keeping only the keys that are F3CP alternatives governing the rule set: a what-if over a
 * period reads J keys for 2025 rounds and H keys for 2008 rounds, and ignores the other games' keys.
 */
export function readingsApplying(rules: F3cpRuleSet, alternatives: readonly string[]): F3cpRuleSet {
  if (!alternatives.length) return rules;
  return variant(
    rules,
    alternatives.filter((k) => k in F3CP_ALTERNATIVE_READINGS && governs(rules, idOf(k))),
  );
}
