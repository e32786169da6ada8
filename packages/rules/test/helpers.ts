import { parseCard, type Card } from '../src/cards.ts';

/** "Qh 6d 4c" → cards */
export const cards = (text: string): Card[] => text.trim().split(/\s+/).map(parseCard);
