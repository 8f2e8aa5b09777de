import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CachedTokenCounter } from '../../../src/context/tokens.ts';
import { parseLocomo, parseLocomoDate } from '../../../scripts/eval/locomo-data.ts';
import { containsTurn, evidenceRecall, normalise } from '../../../scripts/eval/recall.ts';
import { runBaseline, runFull } from '../../../scripts/eval/strategies.ts';
import { realCounter } from '../context/helpers.ts';

let counter: CachedTokenCounter;
beforeAll(async () => {
  counter = await realCounter();
});

/** A tiny conversation in LoCoMo's format, written for this test. */
function sample() {
  const small = (i: number, speaker: string) => ({
    speaker,
    dia_id: '',
    text: `Hey ${speaker === 'Ana' ? 'Ben' : 'Ana'}, the weather is fine and lunch was good, round ${i}, nothing memorable at all here.`,
  });
  const s1 = [
    { speaker: 'Ana', dia_id: 'D1:1', text: 'Hi Ben! I adopted a grey kitten named Pixel last weekend.' },
    { speaker: 'Ben', dia_id: 'D1:2', text: 'Congrats, Ana! I started learning the cello in March.' },
    { speaker: 'Ana', dia_id: 'D1:3', text: 'Nice!', blip_caption: 'a photo of a kitten on a sofa' },
  ];
  const s2 = Array.from({ length: 40 }, (_, i) => ({ ...small(i, i % 2 === 0 ? 'Ana' : 'Ben'), dia_id: `D2:${i + 1}` }));
  return [
    {
      sample_id: 'tiny-1',
      conversation: {
        speaker_a: 'Ana',
        speaker_b: 'Ben',
        session_1_date_time: '1:56 pm on 8 May, 2023',
        session_1: s1,
        session_2_date_time: '10:00 am on 1 June, 2023',
        session_2: s2,
      },
      qa: [
        { question: 'What is the name of Ana’s kitten?', answer: 'Pixel', evidence: ['D1:1'], category: 4 },
        { question: 'Which instrument did Ben start learning?', answer: 'cello', evidence: ['D1:2; D9:99'], category: 4 },
        { question: 'No evidence here', answer: 'x', evidence: [], category: 5 },
      ],
    },
  ];
}

describe('LoCoMo format', () => {
  it('parses sessions in order with dates, captions as text, and evidence lists', () => {
    const [conv] = parseLocomo(sample());
    expect(conv!.sessions.map((s) => s.index)).toEqual([1, 2]);
    expect(conv!.sessions[0]!.time).toBe(Date.UTC(2023, 4, 8, 13, 56));
    expect(conv!.sessions[0]!.turns[2]!.text).toBe('Nice! [shared image: a photo of a kitten on a sofa]');
    expect(conv!.questions.map((q) => q.evidence)).toEqual([['D1:1'], ['D1:2']]);
    expect(conv!.skipped).toBe(1);
    expect(parseLocomoDate('10:37 am on 27 June, 2023')).toBe(Date.UTC(2023, 5, 27, 10, 37));
  });

  it('counts a turn whole or by one informative sentence, never by a fragment', () => {
    const turn = 'Wow! I adopted a grey kitten named Pixel last weekend. So cute.';
    expect(containsTurn(normalise('… I adopted a grey kitten named Pixel last weekend. …'), turn)).toBe(true);
    expect(containsTurn(normalise('a grey kitten named Pixel'), turn)).toBe(false);
    expect(containsTurn(normalise('Wow! So cute.'), turn)).toBe(false);
    expect(evidenceRecall('Nice! [shared image: a photo]', ['Nice! [shared image: a photo]', 'Other turn entirely here.'])).toBe(0.5);
  });

  it('replays through the pipeline and finds old evidence that the baselines drop', async () => {
    const [conv] = parseLocomo(sample());
    const full = await runFull(conv!, 1024, counter);
    const recent = runBaseline(conv!, 'recent', 1024, counter);
    const recallOf = (rs: typeof full) =>
      rs.map((r) => evidenceRecall(r.prompt, r.question.evidence.map((id) => conv!.sessions.flatMap((s) => s.turns).find((t) => t.diaId === id)!.text)));
    expect(recallOf(full)).toEqual([1, 1]);
    expect(recallOf(recent)).toEqual([0, 0]);
    for (const r of full) expect(r.promptTokens).toBeLessThanOrEqual(1024 - 256);
  });

  it('npm run eval -- --hashes writes one line per question, the same on every run', () => {
    const dir = mkdtempSync(join(tmpdir(), 'locomo-hashes-'));
    const data = join(dir, 'tiny.json');
    writeFileSync(data, JSON.stringify(sample()));
    const run = (out: string): string[] => {
      execFileSync(process.execPath, ['--import', 'tsx', 'scripts/eval/locomo.ts', '--locomo', data, '--budget', '1024', '--hashes', out], { stdio: 'pipe' });
      return readFileSync(out, 'utf8').trim().split('\n');
    };
    const first = run(join(dir, 'a.txt'));
    // Two questions with evidence (the one without is skipped): conversation id, index, prompt hash, candidates hash.
    expect(first).toHaveLength(2);
    expect(first[0]).toMatch(/^tiny-1 0 [0-9a-f]{16} [0-9a-f]{16}$/);
    expect(first[0]!.split(' ')[2]).not.toBe(first[1]!.split(' ')[2]);
    expect(run(join(dir, 'b.txt'))).toEqual(first);
  }, 60_000);
});
