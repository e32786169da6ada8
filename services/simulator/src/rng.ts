// The seeded PRNG lives with the engines (randomness enters a simulation only through an Rng it is given).
export { seededRng as rng, shuffledDeck, type Rng } from '@table-audit/rules';
