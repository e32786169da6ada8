import { cite, type Citation } from '../citations/citation.ts';
import { code, implemented, noCode, provision } from './shared.ts';
import type { DiplomaTrace, Status, TraceRow } from './types.ts';

/**
 * Despacho 53/2010, Regulamento Oficial do CRAPS (craps-2010), implemented in packages/rules/src/craps. The text is
 * an OCR of the printed Boletim Oficial; first words are given with the OCR errors corrected ("nimero" → "número").
 */
const D = '53/2010';
const CR = 'packages/rules/src/craps';
const T = 'packages/rules/test/craps';
const ENGINE = code(`${CR}/engine.ts`, 'resolveThrow', 'winningsOf');
const RULESET = code(`${CR}/rule-set.ts`, 'CRAPS_2010', 'CRAPS_BETS');
const FOLD = code(`${CR}/table.ts`, 'CrapsTable');
const PAYOUT_TESTS = [
  `${T}/art-06-payouts.test.ts`,
  `${T}/math.test.ts`,
  'services/replay/test/craps-detection.test.ts',
];
const DETECTION = 'services/replay/test/craps-detection.test.ts';
const bet = (...checks: string[]) =>
  implemented([RULESET, ENGINE, code(`${CR}/checks/art-06-payouts.ts`, 'checkPayout')], PAYOUT_TESTS, [
    'CRAPS.PAYOUT.MISMATCH',
    ...checks,
  ]);
const placing = (check: string, symbol: string) =>
  implemented(
    [code(`${CR}/checks/art-05-07-bets.ts`, symbol), FOLD],
    [`${T}/art-05-07-bets.test.ts`, DETECTION],
    [check],
  );
const throws = (...checks: string[]) =>
  implemented(
    [code(`${CR}/checks/art-01-03-dice-throws.ts`, 'checkVoidSettled', 'checkVoidNotDeclared'), FOLD],
    [`${T}/art-01-03-dice-throws.test.ts`, DETECTION],
    checks,
  );
const shooter = (symbols: string[], checks: string[]) =>
  implemented(
    [code(`${CR}/checks/art-02-04-shooter.ts`, ...symbols), FOLD],
    [`${T}/art-02-04-shooter.test.ts`, DETECTION],
    checks,
  );
const notSeen = (what: string) =>
  noCode(
    `not checked: ${what} is not in the events a CRAPS table emits (ta.craps), so the audit cannot see it`,
  );
const HEADINGS: Record<number, string> = {
  1: 'Material',
  2: 'Participação no jogo e procedimentos iniciais',
  3: 'Irregularidades no lançamento dos dados',
  4: 'Substituição do lançador dos dados',
  5: 'Apostas',
  6: 'Prémios',
  7: 'Outras apostas ou diferentes prémios',
};
const at = (article: number, numero?: number, alinea?: number): Citation =>
  cite(D, article, {
    ...(numero === undefined ? {} : { numero }),
    ...(alinea === undefined ? {} : { alinea }),
  });
const p = (c: Citation, firstWords: string, status: Status, note?: string): TraceRow =>
  provision(c, HEADINGS[c.article] ?? null, firstWords, status, note === undefined ? {} : { note });
const dice = noCode(
  'a physical property of the dice, verified by inspection and not visible in events; art. 3.º n.º 4 refers to it (a DieChecked says whether the croupier found it met)',
);

export const DESPACHO_53_2010: DiplomaTrace = Object.freeze({
  id: D,
  title: 'Despacho n.º 53/2010 — Regulamento Oficial do CRAPS',
  source: 'craps-despacho-53-2010.ocr.pt.txt (OCR)',
  ruleSets: ['craps-2010'],
  notes: [
    'No amendment found. The OCR drops some accents and reads "n.º" as "n.°"; numbering below follows the text.',
  ],
  rows: [
    p(
      at(0, 1),
      'É aprovado o regulamento oficial do jogo «CRAPS», em anexo ao presente despacho',
      noCode('approves the annexed rules; each of their provisions has its own row'),
    ),
    p(
      at(0, 2),
      'É revogada a Portaria n.º 97/85/M, de 18 de Maio …',
      noCode(
        'revokes the 1985 CRAPS rules, which the project does not hold: the registry has no CRAPS rule set before 2010-03-09',
      ),
    ),
    p(
      at(0, 3),
      'O presente despacho entra em vigor no dia seguinte ao da sua publicação',
      implemented([code('packages/rules/src/registry.ts', 'RULE_SETS')], [`${T}/registry.test.ts`]),
      'the registry already dates craps-2010 from 2010-03-09; nothing tests it until the rule set is built',
    ),
    p(at(1, 1), 'O material do CRAPS inclui:', noCode('introduces the list of equipment in its alíneas')),
    p(
      at(1, 1, 1),
      'Quatro ou cinco dados de faces gravadas com uma a seis pintas',
      noCode('equipment: how many dice a table keeps is not in the events'),
    ),
    p(
      at(1, 1, 2),
      'Uma mesa de jogo com tabuleiro e lay out próprios',
      noCode('equipment: table and layout'),
    ),
    p(
      at(1, 1, 3),
      'Um gancho de madeira ou material equiparado para a movimentação dos dados',
      noCode('equipment: the stick'),
    ),
    p(at(1, 2), 'Os dados devem cumprir os seguintes requisitos:', dice),
    p(at(1, 2, 1), 'Arestas com o mesmo comprimento', dice),
    p(at(1, 2, 2), 'A soma das pintas das faces opostas igual a sete', dice),
    p(at(1, 2, 3), 'Pintas bem visíveis e todas com igual diâmetro', dice),
    p(at(1, 2, 4), 'O mesmo peso e perfeitamente equilibrados', dice),
    p(
      at(2, 1),
      'Qualquer jogador pode participar no jogo, mas só um jogador que tenha apostado o valor mínimo pode lançar os dados',
      shooter(['checkShooterMinimum'], ['CRAPS.SHOOTER.NO_MIN_BET']),
    ),
    p(
      at(2, 2),
      'Cada jogador, à sua vez, lança dois dados escolhidos de entre os que lhe forem apresentados … o stickman',
      notSeen('which dice the stickman offered'),
    ),
    p(
      at(2, 3),
      'Os lançamentos são iniciados pelo jogador à esquerda do stickman …',
      notSeen("where the players stand around the table (the stickman's left)"),
    ),
    p(
      at(2, 4),
      'O lançamento dos dois dados é feito, ao mesmo tempo, com uma só mão, na direcção da parede oposta …',
      noCode(
        'how the shooter throws; a throw that breaks it is void under art. 3.º n.º 2, where it is checked',
      ),
    ),
    p(
      at(2, 5),
      'Os dados devem ser lançados de forma a rolarem sobre a mesa',
      noCode(
        'how the shooter throws; a throw without rolling is void under art. 3.º (the OCR\'s "3."), where it is checked',
      ),
    ),
    p(
      at(3, 1),
      'Quando algum dos dados, após o lançamento, não esteja completamente assente numa das suas faces …',
      noCode(
        "which face is read is the croupier's reading; DiceThrown.faces carries it and the engine takes it as the result",
      ),
    ),
    p(
      at(3, 2),
      'O lançamento é nulo e deve ser repetido sempre que:',
      throws('CRAPS.THROW.VOID_SETTLED', 'CRAPS.THROW.VOID_NOT_DECLARED'),
    ),
    p(at(3, 2, 1), 'Um ou ambos os dados saiam do tabuleiro', throws()),
    p(
      at(3, 2, 2),
      'Os dados não ultrapassem o meio da mesa, excepto se um ou ambos os dados chocarem com qualquer das paredes',
      throws(),
    ),
    p(
      at(3, 3),
      'Os dados sejam atirados para a mesa, sem rolamento',
      throws(),
      'numbered "3." in the text although it reads as a third alínea of n.º 2 (interpretation C4); cited as the text numbers it',
    ),
    p(
      at(3, 4),
      'Os dados saídos da mesa só podem ser reutilizados após verificação, por um croupier …',
      implemented(
        [code(`${CR}/checks/art-01-03-dice-throws.ts`, 'checkDiceReuse'), FOLD],
        [`${T}/art-01-03-dice-throws.test.ts`, DETECTION],
        ['CRAPS.DICE.UNCHECKED_REUSE'],
      ),
    ),
    p(
      at(4),
      'O lançador dos dados é substituído quando:',
      shooter(['checkShooterChange', 'wrongChangeReason'], ['CRAPS.SHOOTER.WRONGLY_CHANGED']),
    ),
    p(
      at(4, undefined, 1),
      'Deixar de colocar qualquer aposta',
      shooter(['wrongChangeReason'], ['CRAPS.SHOOTER.WRONGLY_CHANGED']),
    ),
    p(
      at(4, undefined, 2),
      'Após o primeiro lançamento a soma dos dados implique a perda das apostas colocadas',
      shooter(
        ['checkShooterKept', 'checkShooterChange'],
        ['CRAPS.SHOOTER.NOT_CHANGED', 'CRAPS.SHOOTER.WRONGLY_CHANGED'],
      ),
    ),
    p(
      at(5, 1),
      'Os jogadores podem fazer as seguintes apostas: Apostas de linha; Apostas de um único lançamento; … múltiplos lançamentos',
      implemented([RULESET], [`${T}/math.test.ts`]),
    ),
    p(at(5, 2), 'As apostas de linha, são as seguintes:', bet()),
    p(
      at(5, 2, 1),
      '«Pass Line» — O jogador ganha se, no primeiro lançamento, a soma dos dados for 7 ou 11 …',
      bet(),
    ),
    p(
      at(5, 2, 2),
      'Aposta adicional «Pass Line» — O jogador que faça um número ponto pode colocar uma aposta adicional …',
      bet('CRAPS.BET.ODDS_WITHOUT_LINE'),
    ),
    p(
      at(5, 2, 3),
      '«Don\u2019t Pass Line» — O jogador ganha se, no primeiro lançamento, a soma dos dados for 2 ou 3 …',
      bet(),
    ),
    p(
      at(5, 2, 4),
      'Aposta Adicional «Don\u2019t Pass Line» — O jogador que faça um número ponto pode colocar uma aposta adicional …',
      bet('CRAPS.BET.ODDS_WITHOUT_LINE'),
    ),
    p(
      at(5, 2, 5),
      '«Come» — O jogador depois de, na aposta «Pass Line», fazer um número ponto, pode colocar a aposta «Come» …',
      bet('CRAPS.BET.COME_BEFORE_POINT', 'CRAPS.BET.ODDS_WITHOUT_LINE'),
    ),
    p(
      at(5, 2, 6),
      '«Don\u2019t Come» — Esta aposta é colocada nos mesmos pressupostos da aposta anterior …',
      bet('CRAPS.BET.COME_BEFORE_POINT', 'CRAPS.BET.ODDS_WITHOUT_LINE'),
    ),
    p(at(5, 3), 'As principais apostas de um único lançamento, são as seguintes:', bet()),
    p(at(5, 3, 1), '«Any Craps» — O jogador ganha se a soma dos dados for 2, 3 ou 12 …', bet()),
    p(at(5, 3, 2), '«Any 7/Big Red/Big 7» — O jogador ganha se a soma dos dados for 7 …', bet()),
    p(at(5, 3, 3), '«Eleven/11» — O jogador ganha se a soma dos dados for 11 …', bet()),
    p(at(5, 3, 4), '«Ace/deuce/3» — O jogador ganha se a soma dos dados for 3 …', bet()),
    p(at(5, 3, 5), '«Aces/2» — O jogador ganha se a soma dos dados for 2 …', bet()),
    p(at(5, 3, 6), '«Boxcars/12» — O jogador ganha se a soma dos dados for 12 …', bet()),
    p(
      at(5, 3, 7),
      '«Horn» — O jogador coloca quatro apostas simultâneas, nos números 2, 3, 11 e 12 …',
      bet(),
    ),
    p(at(5, 3, 8), '«Field» — O jogador ganha se a soma dos dados for 3, 4, 9, 10 e 11 …', bet()),
    p(
      at(5, 3, 9),
      '«Big or small», o jogador ganha a aposta «Big» — correspondente às somas 8, 9, 10, 11 ou 12 …',
      bet(),
    ),
    p(at(5, 4), 'As principais apostas de múltiplos lançamentos, são as seguintes:', bet()),
    p(
      at(5, 4, 1),
      '«Hard Way» — O jogador aposta nos números 4, 6, 8 ou 10 quando constituam a soma de dois lados iguais …',
      bet(),
    ),
    p(at(5, 4, 2), '«Big 6 or Big 8» — O jogador aposta na soma 6 ou 8 contra a soma 7 …', bet()),
    p(at(5, 4, 3), '«Big 5 or 9» — O jogador aposta na soma 5 ou 9 contra a soma 7 …', bet()),
    p(at(5, 4, 4), '«Big 4 or 10» — O jogador aposta na soma 4 ou 10 contra a soma 7 …', bet()),
    p(
      at(5, 5),
      'As apostas previstas nos números 3 e 4 podem ser feitas em qualquer momento do jogo',
      implemented([FOLD], [`${T}/art-06-payouts.test.ts`]),
    ),
    p(
      at(5, 6),
      'O valor das apostas deve ser um múltiplo dos mínimos fixados',
      placing('CRAPS.BET.NOT_MULTIPLE_OF_MIN', 'checkMultipleOfMinimum'),
    ),
    p(
      at(6),
      'O ganho de uma das apostas descritas no artigo anterior atribui o direito aos prémios seguintes:',
      bet(),
    ),
    p(
      at(6, undefined, 1),
      'Os prémios das apostas «Pass Line» e «Come» são iguais ao valor apostado (1:1)',
      bet(),
    ),
    p(
      at(6, undefined, 2),
      'Os prémios das Apostas adicionais «Pass Line» e «Come» são pagos: 2 para 1 … 3 para 2 … 6 para 5',
      bet(),
    ),
    p(
      at(6, undefined, 3),
      'Os prémios das apostas «Don\u2019t Pass» e «Don\u2019t Come» são iguais ao valor apostado (1:1)',
      bet(),
    ),
    p(
      at(6, undefined, 4),
      'Os prémios das Apostas adicionais — «Don\u2019t Pass» e «Don\u2019t Come» são pagos: 1 para 2 … 2 para 3 … 5 para 6',
      bet(),
    ),
    p(at(6, undefined, 5), 'O prémio da aposta «Any Craps» é sete vezes o valor apostado (7:1)', bet()),
    p(
      at(6, undefined, 6),
      'O prémio da aposta «Any 7/Big Red/Big 7» é quatro vezes (4:1) o valor apostado',
      bet(),
    ),
    p(at(6, undefined, 7), 'O prémio da aposta «Eleven/11» é quinze vezes o valor apostado (15:1)', bet()),
    p(at(6, undefined, 8), 'O prémio da aposta «Ace/deuce/3» é quinze vezes o valor apostado (15:1)', bet()),
    p(at(6, undefined, 9), 'O prémio da aposta «Aces/2» é trinta vezes o valor apostado (30:1)', bet()),
    p(at(6, undefined, 10), 'O prémio da aposta «Boxcars/12» é trinta vezes o valor apostado (30:1)', bet()),
    p(
      at(6, undefined, 11),
      'Os prémios da aposta «Horn» são pagos na proporção de 27 para 4 (27:4) … e de 3 para 1 …',
      bet(),
    ),
    p(
      at(6, undefined, 12),
      'O prémio da aposta «Field» é igual ao valor apostado (1:1) relativamente aos números 3, 4, 9, 10 e 11 …',
      bet(),
    ),
    p(at(6, undefined, 13), 'O prémio da aposta «Big or small» é igual ao valor apostado (1:1)', bet()),
    p(
      at(6, undefined, 14),
      'O prémio da aposta «Hard Way» é nove vezes o valor apostado (9:1) relativamente às combinações 3-3 e 4-4 …',
      bet(),
    ),
    p(
      at(6, undefined, 15),
      'O prémio das apostas «Big 6 or Big 8», «Big 5 or 9» e «Big 4 or 10» são pagas na proporção de 7 para 6 …',
      bet(),
    ),
    p(
      at(7, 1),
      'A requerimento das concessionárias/subconcessionárias, a Direcção de Inspecção e Coordenação de Jogos pode autorizar novas apostas …',
      placing('CRAPS.BET.NOT_AUTHORISED', 'checkAuthorised'),
    ),
    p(
      at(7, 2),
      'O requerimento previsto no número anterior deve ser instruído, designadamente, com a descrição precisa das novas apostas …',
      noCode("what a concessionaire's request to DICJ must contain: administrative"),
    ),
    p(
      at(7, 3),
      'O despacho de autorização pode estabelecer condições específicas de exploração e de publicitação …',
      noCode(
        'conditions a DICJ authorisation may set: administrative; what it authorises reaches the audit as table configuration (n.º 1)',
      ),
    ),
  ],
});
