/**
 * The interpretation register: every reading the project chose where the law leaves a question open. Code,
 * findings and docs name these ids; docs/interpretations.md is generated from this list
 * (`table-audit interpretations --markdown`), and a test keeps the two equal.
 * J1–J4 come from the F3CP digest (shared/spec/f3cp-2025.md); J5 onwards were added while implementing it.
 */
export interface Interpretation {
  readonly id: string;
  readonly ruleSets: readonly string[];
  readonly question: string;
  readonly reading: string;
  readonly alternative: string;
  /** citation keys (see citations/citation.ts) */
  readonly articles: readonly string[];
  readonly source: 'spec' | 'implementation';
}

const F3CP_2025 = ['f3cp-2025', 'f3cp-2025a'];
const F3CP_2008 = ['f3cp-2008', 'f3cp-2008a'];

export const INTERPRETATIONS: readonly Interpretation[] = [
  {
    id: 'J1',
    ruleSets: F3CP_2025,
    question: 'Is the Pair Plus bet of a hand that folds (no Play bet) still settled?',
    reading:
      'Yes: the folded hand keeps its cards for that purpose (art. 12.º n.º 3) and its Pair Plus is settled on its three cards.',
    // the digest's alternative said "every bet"; art. 12.º n.º 4 keeps the Six Card Bonus and the Progressive
    alternative:
      'A fold forfeits the Pair Plus too (with the Ante); the Six Card Bonus and the Progressive stand whatever the fold (art. 12.º n.º 4).',
    articles: ['89/2025 art.12 n.2', '89/2025 art.12 n.3', '89/2025 art.12 n.4', '89/2025 art.13 al.5'],
    source: 'spec',
  },
  {
    id: 'J2',
    ruleSets: F3CP_2025,
    question:
      'What happens to Ante and Play when a qualifying banker hand and the player hand are equal? (Art. 13.º 3) covers only higher and lower; art. 7.º n.º 1 6) gives no tie clause for three odd cards.)',
    reading: 'Equal hands push: Ante and Play are returned.',
    alternative: 'The banker wins ties.',
    articles: ['89/2025 art.13 al.3', '89/2025 art.7 n.1'],
    source: 'spec',
  },
  {
    id: 'J3',
    ruleSets: F3CP_2025,
    question:
      'Who receives the Ante bonus, paid "independently of whether the game proceeds" (art. 13.º 4))?',
    reading:
      'Every hand that played (made the Play bet), whatever the banker holds and whether the hand won or lost against it; a fold forfeits the Ante and so its bonus.',
    alternative: 'Only hands that beat a qualifying banker, or also folded hands.',
    articles: ['89/2025 art.13 al.4', '89/2025 art.12 n.2'],
    source: 'spec',
  },
  {
    id: 'J4',
    ruleSets: F3CP_2025,
    question:
      'How does the pool change when several Progressive Jackpot hands are paid in one round (art. 15.º n.º 3–6)?',
    reading:
      'Each Royal/Straight Flush award is computed on the pool as it stands when that payment is made; the pool is then reduced by the percentage share (100% or 10% of the pool at that moment), also where the greater fixed amount was paid instead; fixed-amount-only hands (Four of a Kind, Full House, Flush) do not change the pool; a pool emptied by a Royal Flush restarts at the reset amount.',
    alternative:
      'All awards computed on the pool at the start of settlement; or the pool reduced by the amount actually paid.',
    articles: [
      '89/2025 art.15 n.3',
      '89/2025 art.15 n.4',
      '89/2025 art.15 n.5',
      '89/2025 art.15 n.6',
      '89/2025 art.16 n.3',
    ],
    source: 'spec',
  },
  {
    id: 'J5',
    ruleSets: F3CP_2025,
    question:
      'Is the Progressive Jackpot stake returned with an award? Art. 16.º n.º 3 pays "um montante fixo" or a share of the pool, not "X para 1".',
    reading: 'No: the Progressive stake is always collected; a qualifying hand receives the award alone.',
    alternative: 'The stake is returned with the award, as with the "X para 1" bets.',
    articles: ['89/2025 art.16 n.3'],
    source: 'implementation',
  },
  {
    id: 'J6',
    ruleSets: F3CP_2025,
    question: 'A 10% share of the pool may not be a whole number of avos. How is it rounded?',
    reading:
      "By the table's rounding policy (default: down to the avo); the pool is reduced by the same rounded share, so money is neither created nor lost.",
    alternative: 'Round half up; or reduce the pool by the unrounded share.',
    articles: ['89/2025 art.15 n.4', '89/2025 art.15 n.6', '89/2025 art.16 n.3 al.2'],
    source: 'implementation',
  },
  {
    id: 'J7',
    ruleSets: F3CP_2025,
    question:
      'Two Straights or Straight Flushes: PT art. 7.º n.º 1 says the hand with the highest card wins, the ZH text says the higher sequence (相連點數) wins. Which is the top card of 3-2-A?',
    reading:
      'Straights compare by their place in art. 6.º 2) (as the ZH text says): 3-2-A is the lowest straight and counts the 3 as its top card; A-K-Q is the highest.',
    alternative: 'Literal PT: 3-2-A holds an Ace, the highest card, and would beat K-Q-J.',
    articles: ['89/2025 art.6 al.2', '89/2025 art.7 n.1 al.1', '89/2025 art.7 n.1 al.2'],
    source: 'implementation',
  },
  {
    id: 'J8',
    ruleSets: F3CP_2025,
    question:
      'A Straight is "cards in sequence but of different suits" (art. 7.º n.º 1 and n.º 2 6)). Five cards cannot all be of different suits.',
    reading: '"Of different suits" means "not all of the same suit" (which would be a Straight Flush).',
    alternative:
      'Every card of a different suit (impossible for five cards, so no five-card Straight would exist).',
    articles: ['89/2025 art.7 n.1 al.2', '89/2025 art.7 n.2 al.6'],
    source: 'implementation',
  },
  {
    id: 'J9',
    ruleSets: ['f3cp-2025a'],
    question:
      'Despacho 94/2025 survives only in part: its wording of art. 7.º n.º 2 6)-7) and n.º 3 is cut off in the only copy.',
    reading:
      'Art. 7.º n.º 1 follows the consolidated DICJ text (SF, Three of a Kind, Straight, Flush, Pair, three odd cards); n.º 2 and n.º 3 stay as published in 89/2025; in force from 2025-11-18 (the usual day-after-publication clause).',
    alternative:
      'Treat n.º 2–3 as changed in an unknown way and refuse to settle Six Card Bonus and Progressive bets.',
    articles: ['89/2025 art.7 n.1 [94/2025]', '89/2025 art.7 n.2', '89/2025 art.7 n.3'],
    source: 'implementation',
  },
  {
    id: 'J10',
    ruleSets: F3CP_2025,
    question:
      'Art. 15.º n.º 5 pays a Straight Flush before a Royal Flush. In what order are the other winners paid?',
    reading:
      'All Straight Flush holders first, left to right; then every other winner left to right from the seat left of the banker (art. 15.º n.º 3).',
    alternative:
      'Only the Straight Flush holder moves ahead of the Royal Flush; fixed-amount hands keep their seat order.',
    articles: ['89/2025 art.15 n.3', '89/2025 art.15 n.5'],
    source: 'implementation',
  },
  {
    id: 'J11',
    ruleSets: F3CP_2025,
    question:
      'What is a banker hand "equal to or higher than Q" (art. 13.º 1)-2))? PT speaks of the value of the banker\'s hand; ZH of the banker holding cards of points below Q / of Q or higher (莊家持有點數低於Q的紙牌).',
    reading:
      'The PT hand value, under art. 7.º n.º 1: any pair or better combination qualifies; three odd cards qualify when their highest card is a Queen or higher. The same under either hand order.',
    alternative:
      'Literal ZH: only a hand holding a card of Q or higher qualifies, so 2-2-5 or 2-3-4 would not, and Q-5-2 would be both below and above Q.',
    articles: ['89/2025 art.13 al.1', '89/2025 art.13 al.2', '89/2025 art.13 al.3'],
    source: 'implementation',
  },
  {
    id: 'J12',
    ruleSets: F3CP_2025,
    question:
      'Art. 10.º 2): PT allows bets only "na própria mão" (on the player\'s own hand) and forbids betting "em conjunto com outras mãos" (jointly with other hands); ZH limits each player to the hand where they are seated (正佔座的一門) and forbids betting on more than one hand through other persons.',
    reading:
      "Both prohibitions apply: a bet is flagged when it is placed on a hand other than the bettor's own seat, or by one player on several hands (directly or through others).",
    // the register said "only the PT reading: combined bets across hands"; PT also confines a bet to the player's own hand
    alternative:
      "PT literal: the player's own hand is the hand they bet on, tied to no seat. A bet on a hand another player occupies, or bets by one player on several hands, are breaches; a player seated at one seat who bets on a single other, unoccupied, hand is not.",
    articles: ['89/2025 art.10 al.2'],
    source: 'implementation',
  },
  {
    id: 'J13',
    ruleSets: F3CP_2025,
    question:
      'Art. 12.º n.º 1: PT lets "only seated players" hold and see the cards; ZH only the player seated at that hand (每門的佔座的博彩者).',
    reading:
      "The stricter ZH reading: a hand's cards may be held or viewed only by the player seated at that hand.",
    alternative: "PT literal: any seated player may hold or see any hand's cards.",
    articles: ['89/2025 art.12 n.1'],
    source: 'implementation',
  },
  {
    id: 'J14',
    ruleSets: F3CP_2025,
    question:
      'Art. 15.º n.º 3-4: PT pays several jackpot winners left to right and gives 10% to "one or more" Straight Flushes; ZH names only the first hand paid and speaks of several Straight Flushes.',
    reading:
      'PT: every payment in seat order from seat 1; a single Straight Flush is paid like several (art. 16.º n.º 3 2) agrees).',
    alternative: 'ZH literal: only the first payment is ordered; n.º 4 only for several Straight Flushes.',
    articles: ['89/2025 art.15 n.3', '89/2025 art.15 n.4', '89/2025 art.16 n.3 al.2'],
    source: 'implementation',
  },
  {
    id: 'J15',
    ruleSets: F3CP_2025,
    question:
      'Art. 17.º n.º 2: on a shuffler malfunction PT "suspends" the round and acts when the shuffler "fails again"; ZH "terminates" (終止) the round and acts if the fault persists (故障情況持續).',
    reading:
      'The round ends (no further card may be dealt in it; its bets are returned and Progressive bets carried over, n.º 3); a second malfunction before a round completes normally bars new rounds until the shuffler is replaced or a shoe is used.',
    // the register said only "paused and resumed"; n.º 3 carries the Progressive bets over in the case of n.º 2 either way
    alternative:
      'The round is paused, the cards reshuffled, and its deal resumed and settled; n.º 3 still moves its Progressive bets to the next round, unsettled.',
    articles: ['89/2025 art.17 n.2', '89/2025 art.17 n.3'],
    source: 'implementation',
  },
  {
    id: 'J16',
    ruleSets: F3CP_2025,
    question:
      'Art. 18.º n.º 3: PT forbids revealing card values to third parties; ZH forbids anyone attempting to disclose the values of cards already dealt, to influence betting decisions.',
    reading:
      'Observed attempts count as well as completed reveals (ZH), for cards dealt in the current round.',
    alternative: 'PT literal: only a completed reveal to a third party.',
    articles: ['89/2025 art.18 n.3', '89/2025 art.18 n.2'],
    source: 'implementation',
  },
  {
    id: 'J17',
    ruleSets: F3CP_2025,
    question:
      'Art. 11.º n.º 3 has two community cards dealt "when there are Progressive bets"; art. 15.º n.º 2 says that with no such bet the banker does not reveal "the two community cards placed on the table". Is dealing them with no Progressive bet a breach of art. 11.º (which voids the round under art. 17.º n.º 1 1))?',
    reading:
      'No: art. 15.º n.º 2 presupposes community cards on the table with no Progressive bet, so dealing them is allowed; revealing them is what is forbidden (F3CP.JACKPOT.COMMUNITY_REVEALED_WITHOUT_BETS).',
    alternative:
      'Dealing community cards with no Progressive bet breaks art. 11.º n.º 3 and voids the round.',
    articles: ['89/2025 art.11 n.3', '89/2025 art.15 n.2', '89/2025 art.17 n.1 al.1'],
    source: 'implementation',
  },
  {
    id: 'J18',
    ruleSets: F3CP_2025,
    question:
      'Art. 11.º n.º 5 has the cards dealt face down; art. 17.º n.º 1 2) and 3) void a round when banker cards, or more than one player card, are "inadvertently exposed during the deal". Is a card dealt face up such an exposure?',
    reading:
      'Yes: a card dealt face up is exposed during the deal, whatever the intent. A banker card dealt face up, or two player cards (face up or otherwise exposed), void the round; one player card lets it go on (art. 17.º n.º 4 1)). The face-up deal is also F3CP.DEAL.FACE_UP.',
    alternative:
      'Only a card exposed by accident after being dealt face down counts; a face-up deal is only a breach of art. 11.º n.º 5 and the round is settled.',
    articles: [
      '89/2025 art.11 n.5',
      '89/2025 art.17 n.1 al.2',
      '89/2025 art.17 n.1 al.3',
      '89/2025 art.17 n.4',
    ],
    source: 'implementation',
  },
  {
    id: 'J19',
    ruleSets: F3CP_2025,
    question:
      'A breach that art. 17.º answers by voiding the round (a deal out of order, a wrong count, a card dealt face up) happened, and the table voided the round as the law requires. Is the breach still a finding?',
    reading:
      'Yes, for the record but not as an alert: the finding is raised at low severity and marked handled, so a compliance officer sees dealer errors without working them as mishandled rounds. How the void itself was carried out (bets returned, Progressive bets carried over) is judged separately and at full severity.',
    alternative: 'A correctly handled breach raises nothing; only its mishandling is a finding.',
    articles: ['89/2025 art.11 n.1', '89/2025 art.11 n.2', '89/2025 art.11 n.5', '89/2025 art.17 n.1'],
    source: 'implementation',
  },
  {
    id: 'J20',
    ruleSets: F3CP_2025,
    question:
      'Art. 15.º n.º 2: with no Progressive bet, PT says the banker "não revela" (does not reveal) the community cards; ZH says the banker "無需亮出" (need not reveal them), which forbids nothing. Is revealing them a breach?',
    reading:
      'PT: revealing them is a breach (F3CP.JACKPOT.COMMUNITY_REVEALED_WITHOUT_BETS, medium), since two cards shown in a round with no Progressive bet serve no purpose of the game and inform the table.',
    alternative: 'ZH: the banker may reveal them or not; no finding.',
    articles: ['89/2025 art.15 n.2'],
    source: 'implementation',
  },
  {
    id: 'J21',
    ruleSets: F3CP_2025,
    question:
      'Art. 18.º n.º 2: PT forbids a seated player to leave "o seu lugar na mesa" (their place at the table) during a round; ZH says the gaming table (博彩桌). Is moving to another seat of the same table leaving?',
    reading:
      'PT: leaving the seat is enough; the seat sensor reports it (SeatVacated) and F3CP.CONDUCT.LEFT_SEAT is raised between the first card and the settlement of that seat.',
    alternative: 'ZH: only leaving the table counts; a change of seat at the same table is no breach.',
    articles: ['89/2025 art.18 n.2'],
    source: 'implementation',
  },
  {
    id: 'H1',
    ruleSets: F3CP_2008,
    question:
      'Art. 8.º 1) of 78/2008 calls K-Q-J the highest straight flush and 3-2-A the lowest; art. 4.º 2) lists A-K-Q as the highest sequence. Is A-K-Q of one suit a Straight Flush, and the highest?',
    reading:
      'Art. 4.º 2): A-K-Q is the highest sequence, for straights and straight flushes alike; 3-2-A is the lowest and counts its 3 as top card.',
    alternative:
      'Art. 8.º 1) literally: K-Q-J is the highest straight flush, so A-K-Q of one suit is a Flush (ace high). Selectable for a replay (--alternative H1) and for the math.',
    articles: ['78/2008 art.4 al.2', '78/2008 art.8 al.1', '78/2008 art.8 al.3'],
    source: 'spec',
  },
  {
    id: 'H2',
    ruleSets: F3CP_2008,
    question:
      'Art. 9.º 6) and 7) cover a qualifying croupier\'s hand lower or higher than the player\'s; what do Ante and Play do when the hands are equal (art. 8.º: "empate")?',
    reading: 'Equal hands push: Ante and Play are returned (the counterpart of J2 for the 2025 rules).',
    alternative: 'The croupier wins ties.',
    articles: ['78/2008 art.9 al.6', '78/2008 art.9 al.7', '78/2008 art.8'],
    source: 'implementation',
  },
  {
    id: 'H3',
    ruleSets: F3CP_2008,
    question:
      'Art. 9.º 8) pays the Ante bonus "independentemente do valor da mão do croupier". Does a hand that did not play receive it?',
    reading:
      'Every hand that played receives it, whatever the croupier holds; a hand that did not play has lost the hand and its Ante (9.º 2)), and so the bonus.',
    alternative: 'Only hands that beat a qualifying croupier; or also hands that did not play.',
    articles: ['78/2008 art.9 al.8', '78/2008 art.9 al.2'],
    source: 'implementation',
  },
  {
    id: 'H4',
    ruleSets: F3CP_2008,
    question:
      'Art. 9.º 3) obliges a player with Ante and Pair Plus to make the Play bet. If the table lets such a player not play, what happens to the Pair Plus?',
    reading:
      'The hand is lost and the croupier collects its cards (9.º 2)), so the Pair Plus is collected too; the table letting it happen is F3CP08.PLAY.REQUIRED.',
    alternative: 'The Pair Plus is still settled on the three cards (as J1 reads the 2025 rules).',
    articles: ['78/2008 art.9 al.2', '78/2008 art.9 al.3', '78/2008 art.9 al.9'],
    source: 'implementation',
  },
  {
    id: 'H5',
    ruleSets: ['f3cp-2008a'],
    question:
      'Despacho 97/2008 re-worded art. 9.º, but its PT text survives only to alínea 1) and its ZH text to alínea 6); alíneas 7)-9) and the entry into force are unknown.',
    reading:
      "Alíneas 1)-6) as the surviving text (which restates 78/2008); alíneas 7)-9) as in 78/2008; in force from 2008-12-16, the day after publication. So f3cp-2008 and f3cp-2008a settle alike; f3cp-2008a cites 97/2008's wording for alíneas 1)-6).",
    alternative:
      'Treat alíneas 7)-9) as changed in an unknown way and refuse to settle Ante bonus and Pair Plus.',
    articles: ['78/2008 art.9 [97/2008]', '78/2008 art.9 al.7', '78/2008 art.9 al.8', '78/2008 art.9 al.9'],
    source: 'implementation',
  },
  {
    id: 'H6',
    ruleSets: F3CP_2008,
    question:
      'Art. 11.º 2): an exposed croupier card "é deixada de fora, à vista, e todas as restantes cartas são distribuídas de face para baixo". Is the round then invalid, or does it go on?',
    reading:
      "The round goes on (the text says how the deal continues): an inadvertently exposed card, the croupier's included, never voids a 2008 round; voiding it is F3CP08.IRREG.WRONGLY_VOIDED. Whether the exposed croupier card was set aside is not checked (the events do not say which card replaced it).",
    alternative:
      'The exception makes a round with an exposed croupier card invalid, as 89/2025 art. 17.º n.º 1 2) later did.',
    articles: ['78/2008 art.11 al.2'],
    source: 'implementation',
  },
  {
    id: 'H8',
    ruleSets: F3CP_2008,
    question:
      'A breach that art. 11.º 1) or 4) of 78/2008 answers by invalidating the round (a deal out of order, a wrong count) happened, and the table voided the round. Is the breach still a finding?',
    reading:
      'Yes, for the record but not as an alert: raised at low severity and marked handled (the counterpart of J19). How the void was carried out (bets returned) is judged separately at full severity.',
    alternative: 'A correctly handled breach raises nothing.',
    articles: ['78/2008 art.7', '78/2008 art.11 al.1', '78/2008 art.11 al.4'],
    source: 'implementation',
  },
  {
    id: 'H7',
    ruleSets: F3CP_2008,
    question:
      'Art. 9.º 4) lets the croupier play with "uma mão de valor igual ou superior à Dama (Q)". Which hands are that?',
    reading:
      'Any pair or better combination of art. 8.º, and three odd cards whose highest card is a Queen or higher (the counterpart of J11).',
    alternative: 'Only a hand holding a Queen or higher card.',
    articles: ['78/2008 art.9 al.4', '78/2008 art.9 al.5', '78/2008 art.8'],
    source: 'implementation',
  },
  {
    id: 'C1',
    ruleSets: ['craps-2010'],
    question:
      'Art. 4.º 2): the shooter changes when, "after the first throw, the sum of the dice implies the loss of the bets placed". Which throws are these?',
    reading:
      'The seven-out: a 7 thrown once a point is set, which loses the Pass Line. A craps (2, 3, 12) on the come-out loses the Pass Line too but does not change the shooter. CRAPS.SHOOTER.NOT_CHANGED and CRAPS.SHOOTER.WRONGLY_CHANGED follow this reading.',
    alternative: "Any throw after the first that makes the shooter's bets lose, a come-out craps included.",
    articles: ['53/2010 art.4', '53/2010 art.4 al.2'],
    source: 'spec',
  },
  {
    id: 'C2',
    ruleSets: ['craps-2010'],
    question:
      'Art. 6.º 11): the Horn is paid "27 para 4" on 2 or 12 and "3 para 1" on 3 or 11. On what stake?',
    reading:
      'On the whole Horn stake (the four units), net of the three losing units: a unit on the number thrown at 30:1 (2, 12) or 15:1 (3, 11) less the three lost gives 27:4 and 12:4 = 3:1 of the whole. This agrees with Aces, Boxcars, Ace-Deuce and Eleven; the house edge it gives, 1/8, is the mean of theirs (table-audit math craps).',
    alternative: 'The ratios apply to the winning unit alone, the other three units lost besides.',
    articles: ['53/2010 art.6 al.11', '53/2010 art.5 n.3 al.7'],
    source: 'spec',
  },
  {
    id: 'C3',
    ruleSets: ['craps-2010'],
    question:
      'Art. 5.º n.º 4 2)–4): on any sum but the number and 7, the Big 6/8, 5/9 and 4/10 bets are an "empate", the player "neither wins nor loses". Is the bet returned, or does it stay?',
    reading:
      'It stays on the layout until the number or a 7 is thrown: these are multi-throw bets (n.º 4), and the payouts of art. 6.º 15) then give the published edges (Big 6/8 at 7:6: 1/66 = 1.52%). Each Big bet names one number: on "5 or 9" together against 7 a 7:5 payout would favour the player.',
    alternative: 'The bet is returned (a push) on any other sum, which would make it a one-throw bet.',
    articles: [
      '53/2010 art.5 n.4 al.2',
      '53/2010 art.5 n.4 al.3',
      '53/2010 art.5 n.4 al.4',
      '53/2010 art.6 al.15',
    ],
    source: 'implementation',
  },
  {
    id: 'C4',
    ruleSets: ['craps-2010'],
    question:
      'Art. 3.º in the OCR reads n.º 1, n.º 2 with alíneas 1) and 2), then "3." (the dice thrown without rolling) and "4." (a die that left the table is re-used only after a croupier\'s check). How are these numbered in the printed text?',
    reading:
      'By its wording "3." is a third cause of nullity, alínea 3) of n.º 2, and "4." is n.º 3. Until the printed page is checked, findings cite them as the OCR numbers them (art. 3.º n.º 3 and n.º 4), and a throw without rolling is a cause of nullity like the two alíneas of n.º 2.',
    alternative: 'The OCR numbering is right: n.º 3 and n.º 4 are separate números.',
    articles: ['53/2010 art.3 n.2', '53/2010 art.3 n.3', '53/2010 art.3 n.4'],
    source: 'implementation',
  },
  {
    id: 'C5',
    ruleSets: ['craps-2010'],
    question:
      'Art. 5.º n.º 2 3), 6): a come-out 12 is a tie for Don\'t Pass and Don\'t Come ("bar"). Is the bet then returned, or does it wait for the next come-out?',
    reading:
      "It is settled as a tie (PUSH), the stake returned, on that throw; the published Don't Pass edge, 3/220 = 1.364% per bet, counts it so.",
    alternative: 'The bet stays on the layout for the next come-out.',
    articles: ['53/2010 art.5 n.2 al.3', '53/2010 art.5 n.2 al.6'],
    source: 'implementation',
  },
  {
    id: 'T1',
    ruleSets: ['thirteen-cards-1989'],
    question:
      'Art. 8.º: how are "points" counted over the three tiers, when art. 9.º gives each formation its points?',
    reading:
      "Each tier is played against the banker's same tier; the winner of the tier scores that tier's points for its own formation (art. 9.º II); the place wins with more points over the three tiers than the banker, loses with fewer, ties with the same. A natural scores 3 against no points.",
    alternative:
      'Each tier won scores one point; or the points of both formations are added whatever the result.',
    articles: ['Portaria 51/89/M art.8', 'Portaria 51/89/M art.9', 'Portaria 51/89/M art.10'],
    source: 'spec',
  },
  {
    id: 'T2',
    ruleSets: ['thirteen-cards-1989'],
    question:
      'Art. 11.º: what do bets "in terms of 1, 2 or 3 points" mean, and is the 2% commission taken from the win or from the stake?',
    reading:
      'Table configuration (ThirteenPayout): by default the bet\'s amount is the whole sum at risk and its units are recorded; a table may set "stake-per-point" (sum at risk = amount × units). A winner is paid half the sum at risk, rounded down to whole avos, less the commission: by default 2% of that half (the win), rounded to the nearest avo, halves up; a table may set the stake as the base. A loser loses the sum at risk; a tie returns it.',
    alternative:
      'The units multiply the payment by the points difference; the commission is 2% of the stake.',
    articles: ['Portaria 51/89/M art.11'],
    source: 'spec',
  },
  {
    id: 'T3',
    ruleSets: ['thirteen-cards-1989'],
    question:
      'Art. 2.º b): the dice sum is "counted from the banker" counter-clockwise: does the banker count as one?',
    reading:
      "Yes: the banker's place is 1, so sums 1, 5, 9 … give the banker the first card, 2, 6, 10 … the first place counter-clockwise, and so on (place = (sum − 1) mod 4, places numbered 0 = banker, 1, 2, 3 counter-clockwise).",
    alternative: 'The count starts at the place after the banker (place = sum mod 4).',
    articles: ['Portaria 51/89/M art.2 al.2'],
    source: 'implementation',
  },
  {
    id: 'T4',
    ruleSets: ['thirteen-cards-1989'],
    question:
      'Art. 7.º: the tiers must be in "ascending order". Is an equal front and middle a foul, and how does a 3-card tier compare with a 5-card one?',
    reading:
      'Equal tiers are not a foul (only a tier stronger than the one after it is). The 3-card front compares with the middle by formation (trio, pair, high card), then card by card over the cards it has; where those are equal it is the weaker (it has fewer cards).',
    alternative: 'Strictly ascending: equal tiers are a foul.',
    articles: [
      'Portaria 51/89/M art.7',
      'Portaria 51/89/M art.9 n.2 al.7',
      'Portaria 51/89/M art.9 n.2 al.9',
    ],
    source: 'implementation',
  },
  {
    id: 'T5',
    ruleSets: ['thirteen-cards-1989'],
    question:
      'Three cards in the front tier of one suit or in sequence: are they a flush or straight, and do they count for the naturals "three flushes" and "three straights"?',
    reading:
      'In the front tier they rank by their cards (art. 9.º II knows flushes and straights of five cards and trios and pairs of three), but they count for the naturals of art. 9.º I, which ask for flushes or sequences "in all three tiers"; a three-card sequence may be A-2-3 or Q-K-A; a straight or royal flush counts as both a flush and a sequence.',
    alternative: 'Three-card flushes and straights rank as such in the front tier.',
    articles: [
      'Portaria 51/89/M art.9 n.1',
      'Portaria 51/89/M art.9 n.2 al.5',
      'Portaria 51/89/M art.9 n.2 al.6',
    ],
    source: 'implementation',
  },
  {
    id: 'T6',
    ruleSets: ['thirteen-cards-1989'],
    question:
      'A fouled arrangement that would be a natural, and a fouled banker: what happens? (Art. 7.º says only that "the offending place" loses its bets.)',
    reading:
      "A fouled arrangement shows no natural and its place loses its bets (a dragon or six pairs and a half can always be arranged without a foul). When the banker's own tiers foul, the banker's place is the offending one: every place that did not foul and finished in time wins.",
    alternative: 'A natural is judged whatever the tiers; a fouled banker re-arranges.',
    articles: ['Portaria 51/89/M art.7', 'Portaria 51/89/M art.9 n.1'],
    source: 'implementation',
  },
  {
    id: 'M1',
    ruleSets: ['mahjong-1989-deal'],
    question:
      "Art. 2.º: the dice decide the double row from which tiles are drawn, counting counter-clockwise from the banker; does the same sum also give the number of stacks set aside in that row, as in the law's example of 13?",
    reading:
      "Yes. The walls are numbered from the banker's counter-clockwise (0 East/the banker's, 1 South, 2 West, 3 North), the banker counting as one: the row is (sum − 1) mod 4, and that many stacks, counted from the row's right, are set aside; drawing starts at the next stack (ring position 17 × row + sum, modulo the 68 stacks; a sum above 17 runs into the next row). The law's example, 13, gives the banker's own row and 13 stacks.",
    alternative: "The banker always counts from the banker's own row (the earlier digest).",
    articles: ['Portaria 52/89/M art.2'],
    source: 'implementation',
  },
  {
    id: 'M2',
    ruleSets: ['mahjong-1989-deal'],
    question:
      'Art. 2.º: after three rounds of two stacks, "the banker takes two more tiles, alternately, from the top row, each of the other three one tile in turn": in what order?',
    reading:
      "Three rounds of East, South, West, North taking two stacks (4 tiles) each; then East takes two tiles at East's turn and South, West and North one each, in that order: 14, 13, 13, 13. Which wall positions the two tiles come from is not checked.",
    alternative: 'East takes one tile before and one after the others (E, S, W, N, E).',
    articles: ['Portaria 52/89/M art.2'],
    source: 'implementation',
  },
];

/**
 * Whether the what-if replay can select each interpretation's alternative (packages/rules/src/readings.ts holds
 * the selectable ones and what each changes); for the others, why not: the alternative needs data the events do
 * not carry, or changes nothing a replay derives ('not-implementable'), or it is not built yet ('not-implemented').
 */
export type WhatIfStatus =
  | {
      readonly status: 'implemented';
      /** how many alternatives are selectable: ALT, and ALT2 */ readonly variants: 1 | 2;
    }
  | { readonly status: 'not-implementable' | 'not-implemented'; readonly reason: string };

const YES: WhatIfStatus = Object.freeze({ status: 'implemented', variants: 1 });
const YES2: WhatIfStatus = Object.freeze({ status: 'implemented', variants: 2 });
const cannot = (reason: string): WhatIfStatus => Object.freeze({ status: 'not-implementable', reason });

export const WHAT_IF: Readonly<Record<string, WhatIfStatus>> = Object.freeze({
  J1: YES,
  J2: YES,
  J3: YES2,
  J4: YES2,
  J5: YES,
  J6: YES,
  J7: YES,
  J8: YES,
  J9: YES,
  J10: YES,
  J11: YES,
  J12: YES,
  J13: YES,
  J14: cannot(
    'the ZH alternative leaves unsaid what a single Straight Flush is paid (art. 16.º n.º 3 2) pays 10% whatever their number), so there is no second settlement to derive',
  ),
  J15: YES,
  J16: cannot(
    'a surveillance observation (CARD_SHOWN_TO_THIRD_PARTY, SIGNALLING) says what was seen, not whether the card values reached anyone: the events do not tell an attempt from a completed reveal, so both readings raise the same findings from them (telling them apart needs a field of SurveillanceObservation the schema does not have)',
  ),
  J17: YES,
  J18: YES,
  J19: YES,
  J20: YES,
  J21: YES,
  H1: YES,
  H2: YES,
  H3: YES2,
  H4: YES,
  H5: YES,
  H6: YES,
  H7: YES,
  H8: YES,
  C1: YES,
  C2: YES,
  C3: YES,
  C4: cannot(
    'a question of how the printed text numbers art. 3.º: it changes the citation a finding prints, not what a replay derives',
  ),
  C5: YES,
  T1: YES2,
  T2: YES,
  T3: YES,
  T4: YES,
  T5: YES,
  T6: YES,
  M1: YES,
  M2: YES,
});

const byId = new Map(INTERPRETATIONS.map((i) => [i.id, i]));

export function interpretation(id: string): Interpretation {
  const found = byId.get(id);
  if (!found) throw new Error(`unknown interpretation id ${id}`);
  return found;
}

export function interpretationsMarkdown(): string {
  const lines = [
    '# Interpretation register',
    '',
    'Readings chosen where the official text leaves a question open. Generated from',
    '`packages/rules/src/interpretations.ts` by `table-audit interpretations --markdown`; do not edit by hand.',
    'Every finding and settlement line names the ids it depends on.',
    '',
  ];
  for (const i of INTERPRETATIONS) {
    lines.push(
      `## ${i.id} (${i.ruleSets.join(', ')}; from the ${i.source === 'spec' ? 'spec digest' : 'implementation'})`,
    );
    lines.push('', `**Question.** ${i.question}`, '', `**Reading chosen.** ${i.reading}`, '');
    lines.push(`**Alternative.** ${i.alternative}`, '', `**Articles.** ${i.articles.join('; ')}`, '');
    const w = WHAT_IF[i.id];
    lines.push(
      w?.status === 'implemented'
        ? `**What-if.** Selectable: \`table-audit replay --what-if ${i.id}=ALT\`${w.variants === 2 ? ` (the first alternative) or \`${i.id}=ALT2\` (the second)` : ''} (see docs/what-if.md).`
        : `**What-if.** ${w?.status === 'not-implementable' ? 'Not implementable' : 'Not implemented yet'}: ${w?.reason ?? 'not assessed'}.`,
      '',
    );
  }
  return lines.join('\n');
}
