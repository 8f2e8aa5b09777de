import { describe, expect, it } from 'vitest';
import { asReplay, measureProbe, parseRules, ruleTotals, withoutQuestion } from '../../../scripts/eval/rules.ts';

const conversation = {
  id: 'c',
  lang: 'en',
  sessions: [{ date: '2026-02-01T09:00:00Z', turns: [{ role: 'user', text: 'Logs rotate every 7d.' }, { role: 'assistant', text: 'OK, 7d.' }] }],
  probes: [
    { kind: 'changed', question: 'How often do logs rotate?', latest: '3d', older: ['7d'] },
    { kind: 'kept', question: 'Which racks hold the routers?', values: ['R-11', 'R-14'] },
  ],
};

describe('rules eval measures', () => {
  it('reads a well-formed file and refuses a probe without its values', () => {
    expect(parseRules({ conversations: [conversation] })).toHaveLength(1);
    const broken = { ...conversation, probes: [{ kind: 'changed', question: 'How often?', latest: '3d', older: [] }] };
    expect(() => parseRules({ conversations: [broken] })).toThrow(/malformed/);
    expect(() => parseRules([])).toThrow(/conversations/);
  });

  it('replays the user as the first speaker, one session per session, probes as questions', () => {
    const replay = asReplay(parseRules({ conversations: [conversation] })[0]!);
    expect(replay.speakerA).toBe('user');
    expect(replay.sessions[0]!.turns.map((t) => t.speaker)).toEqual(['user', 'assistant']);
    expect(replay.questions.map((q) => q.question)).toEqual(conversation.probes.map((p) => p.question));
  });

  it('counts a value only outside the question, and latest alone only without an older one', () => {
    const [changed, kept] = parseRules({ conversations: [conversation] })[0]!.probes;
    const prompt = (memory: string, q: string): string => `<|im_start|>user\n${memory}\n\n${q}<|im_end|>`;
    const both = measureProbe(changed!, { prompt: prompt('rotate every 7d; now every 3d', changed!.question) });
    const latestOnly = measureProbe(changed!, { prompt: prompt('rotate every 3d', changed!.question) });
    expect(both).toMatchObject({ latest: true, older: true });
    expect(latestOnly).toMatchObject({ latest: true, older: false });
    expect(measureProbe(kept!, { prompt: prompt('routers in R-11', kept!.question) }).kept).toBe(false);
    expect(ruleTotals([both, latestOnly])).toMatchObject({ changed: 2, latest: 1, older: 0.5, latestAlone: 0.5 });
    expect(withoutQuestion('a Q b Q', 'Q')).toBe('a Q b ');
  });
});
