import { beforeAll, describe, expect, it } from 'vitest';
import type { CachedTokenCounter } from '../../../src/context/tokens.ts';
import { haystack, holdsAnswer, isShortAnswer } from '../../../scripts/eval/answer-match.ts';
import { parseLocomo } from '../../../scripts/eval/locomo-data.ts';
import { conversationHaystack, measureQuestion, totals } from '../../../scripts/eval/measures.ts';
import { budgetsWithRetrieval, runFull } from '../../../scripts/eval/strategies.ts';
import { packWhole, rankTurns, runTfidf, tfidfTerms } from '../../../scripts/eval/tfidf-baseline.ts';
import { realCounter } from '../context/helpers.ts';

let counter: CachedTokenCounter;
beforeAll(async () => {
  counter = await realCounter();
});

/** A small conversation in LoCoMo's format, written for this test. */
function conversation() {
  const filler = (i: number) => ({
    speaker: i % 2 === 0 ? 'Rosa' : 'Tomas',
    dia_id: `D2:${i + 1}`,
    text: `Round ${i}: the weather was mild and the tea was fine, nothing else worth noting today.`,
  });
  return parseLocomo([
    {
      sample_id: 'own-1',
      conversation: {
        speaker_a: 'Rosa',
        speaker_b: 'Tomas',
        session_1_date_time: '9:15 am on 3 March, 2024',
        session_1: [
          { speaker: 'Rosa', dia_id: 'D1:1', text: 'Which port should the staging proxy listen on?' },
          { speaker: 'Tomas', dia_id: 'D1:2', text: 'Use 8443, behind the load balancer. Keep 80 closed.' },
          { speaker: 'Rosa', dia_id: 'D1:3', text: 'I repainted the kayak bright orange yesterday.' },
        ],
        session_2_date_time: '6:40 pm on 19 April, 2024',
        session_2: Array.from({ length: 30 }, (_, i) => filler(i)),
      },
      qa: [
        { question: 'Which port does the staging proxy use?', answer: '8443', evidence: ['D1:2'], category: 4 },
        { question: 'What colour is the kayak now?', answer: 'bright orange', evidence: ['D1:3'], category: 4 },
        { question: 'When did Rosa ask about the proxy?', answer: '3 March 2024', evidence: ['D1:1'], category: 2 },
        { question: 'What does Rosa hope to learn next?', answer: 'Italian cooking', evidence: ['D1:3'], category: 1 },
        { question: 'Would Rosa enjoy a river trip?', answer: 'Likely yes', evidence: ['D1:3'], category: 3 },
      ],
    },
  ])[0]!;
}

describe('answer matching', () => {
  it('matches whole words after NFC, case folding and punctuation, and CJK by substring', () => {
    const hay = haystack('Rosa: Use 8443, behind the LOAD-balancer.\n部署在eu-west-1区域，端口８４４３');
    expect(holdsAnswer(hay, '8443')).toBe(true);
    expect(holdsAnswer(hay, 'load balancer')).toBe(true);
    expect(holdsAnswer(hay, '844')).toBe(false); // part of a word is not the word
    expect(holdsAnswer(hay, 'behind the load')).toBe(true);
    expect(holdsAnswer(hay, '部署')).toBe(true);
    expect(holdsAnswer(hay, '上海')).toBe(false);
    expect(holdsAnswer(haystack('Caf\u0065\u0301 opens at nine'), 'Café')).toBe(true);
  });

  it('scores only short answers: at most six words and forty characters', () => {
    expect(isShortAnswer('8443')).toBe(true);
    expect(isShortAnswer('The week before 9 June 2024')).toBe(true);
    expect(isShortAnswer('by taking the slow train along the coast every Sunday')).toBe(false);
    expect(isShortAnswer('a-very-long-hyphenated-answer-that-runs-past-forty')).toBe(false);
    expect(isShortAnswer('!!')).toBe(false);
  });
});

describe('eval measures', () => {
  it('counts whole turns apart from sentences, and answers outside the question only', async () => {
    const conv = conversation();
    const turnText = new Map(conv.sessions.flatMap((s) => s.turns.map((t) => [t.diaId, t.text] as const)));
    const hay = conversationHaystack(conv);
    const question = conv.questions[0]!;
    const sentenceOnly = { question, prompt: `Tomas: Use 8443, behind the load balancer.\n${question.question}`, promptTokens: 10, blockLines: 1 };
    const m = measureQuestion(hay, turnText, sentenceOnly);
    expect(m.lenient).toBe(1);
    expect(m.whole).toBe(0);
    expect(m.answer).toBe(true);
    // An answer only the question holds is not found.
    const echo = measureQuestion(hay, turnText, { question: conv.questions[1]!, prompt: `Is it bright orange? ${conv.questions[1]!.question}`, promptTokens: 5 });
    expect(echo.answer).toBe(true);
    const bare = measureQuestion(hay, turnText, { question: { ...conv.questions[1]!, question: 'Is it bright orange?' }, prompt: 'Is it bright orange?', promptTokens: 5 });
    expect(bare.answer).toBe(false);
    // Session dates are in the conversation as a prompt renders them; an answer nowhere in it is out of answerShare's scope.
    const dated = measureQuestion(hay, turnText, { question: conv.questions[2]!, prompt: 'nothing', promptTokens: 1 });
    expect(dated.answerInConversation).toBe(true);
    const absent = measureQuestion(hay, turnText, { question: conv.questions[3]!, prompt: 'nothing', promptTokens: 1 });
    expect(absent.answer).toBe(false);
    expect(absent.answerInConversation).toBe(false);
    // Open-domain answers are not scored.
    expect(measureQuestion(hay, turnText, { question: conv.questions[4]!, prompt: 'Likely yes', promptTokens: 1 }).answer).toBeNull();
    const t = totals([m, dated, absent]);
    expect(t.answerN).toBe(3);
    expect(t.answerShareN).toBe(2);
    expect(t.answerShare).toBe(0.5);
    expect(t.answer).toBeCloseTo(1 / 3, 4);
  });

  it('replays with roles only, without the speakers’ names', async () => {
    const conv = conversation();
    const named = await runFull(conv, 1024, counter);
    const roles = await runFull(conv, 1024, counter, {}, { rolesOnly: true });
    expect(named[0]!.prompt).toContain('Tomas: Use 8443');
    expect(roles[0]!.prompt).toContain('Assistant: Use 8443');
    expect(roles.every((r) => !r.prompt.includes('Tomas:'))).toBe(true);
  });

  it('gives the retrieval section the budget asked for and the input section the rest', async () => {
    const b = budgetsWithRetrieval(1024, 160);
    expect(b.retrieval).toBe(160);
    expect(b.retrieval + b.input + b.system + b.working + b.reserve).toBe(1024);
    expect(() => budgetsWithRetrieval(1024, 5000)).toThrow(/retrieval-budget/);
    const small = await runFull(conversation(), 1024, counter, {}, { retrievalBudget: 40 });
    expect(small[0]!.turn!.report.memory.budgets.retrieval).toBe(40);
    // The block stays within the section: it does not borrow what the input section leaves unused.
    for (const r of small) expect(r.turn!.report.memory.sections.retrieval.selected).toBeLessThanOrEqual(40);
    const roomy = await runFull(conversation(), 1024, counter);
    expect(Math.max(...roomy.map((r) => r.turn!.report.memory.sections.retrieval.selected!))).toBeGreaterThan(40);
  });
});

describe('--baseline tfidf', () => {
  it('takes lower-cased words and CJK bigrams', () => {
    expect(tfidfTerms('Port 8443 端口号')).toEqual(['端口', '口号', 'port', '8443']);
  });

  it('ranks by the IDF of the question terms a turn holds, and packs whole turns within the budget exactly', () => {
    const turns = ['the proxy listens on 8443', 'the tea was fine', 'the proxy and the tea'].map((t) => new Set(tfidfTerms(t)));
    const df = new Map<string, number>();
    for (const ts of turns) for (const t of ts) df.set(t, (df.get(t) ?? 0) + 1);
    expect(rankTurns(turns, df, 'Which port does the proxy listen on, 8443?')).toEqual([0, 2, 1]);
    const lines = ['Tomas: Use 8443, behind the load balancer.', 'Rosa: a much longer line that cannot possibly fit into the tiny budget given here at all', 'Rosa: ok'];
    const packed = packWhole(lines, counter.count(lines[0]!) + 4, counter);
    expect(packed).toEqual([lines[0], lines[2]]);
    expect(counter.count(packed.join('\n'))).toBeLessThanOrEqual(counter.count(lines[0]!) + 4);
  });

  it('builds prompts of whole turns for each question', () => {
    const results = runTfidf(conversation(), counter, { retrievalBudget: 60, rolesOnly: false });
    expect(results[0]!.prompt).toContain('Tomas: Use 8443, behind the load balancer. Keep 80 closed.');
    expect(results[1]!.prompt).toContain('Rosa: I repainted the kayak bright orange yesterday.');
    for (const r of results) expect(r.blockLines).toBeLessThanOrEqual(4);
  });
});
