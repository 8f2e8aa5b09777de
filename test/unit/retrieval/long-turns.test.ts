/**
 * Long assistant turns, as real chats have them: a 40-line function in a fenced block, a question that says "did I
 * say" or "what did we call". Own examples throughout.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { CachedTokenCounter } from '../../../src/context/tokens.ts';
import { LABELS } from '../../../src/memory/layered/labels.ts';
import { asksForEarlierValues } from '../../../src/memory/retrieval/answer-type.ts';
import { DEFAULT_PACK_OPTIONS, pack, type PackCandidate } from '../../../src/memory/retrieval/pack.ts';
import { fenceRun, showRun } from '../../../src/memory/retrieval/pack-forms.ts';
import { splitPieces } from '../../../src/memory/retrieval/pieces.ts';
import { buildQuery } from '../../../src/memory/retrieval/query.ts';
import type { TurnEntry } from '../../../src/memory/retrieval/records.ts';
import { RetrievalIndex } from '../../../src/memory/retrieval/retrieval-index.ts';
import { realCounter } from '../context/helpers.ts';
import { askIndex, packEnv, packItem, turnEntry } from './pack-helpers.ts';

let counter: CachedTokenCounter;
beforeAll(async () => {
  counter = await realCounter();
});

const DAY = 86_400_000;
const T0 = Date.UTC(2025, 4, 5, 9);
const labels = LABELS.en;
const env = () => packEnv(counter, labels);

const turn = (id: string, seq: number, text: string, role: 'user' | 'assistant' = 'user', time = T0 + seq * 60_000): TurnEntry => turnEntry(id, seq, text, role, time);
const item = (t: TurnEntry, score: number, best = 0): PackCandidate => packItem(t, score, { best });

// An assistant's answer with a long function in it: far more than any passage may hold.
const FILLER = Array.from({ length: 14 }, (_, i) => `    step_${i} = prepare_step(${i}, payload, headers)  # stage ${i} of the pipeline`).join('\n');
const TAIL = Array.from({ length: 14 }, (_, i) => `    record_metric("upload.stage_${i}", elapsed[${i}])`).join('\n');
const HELPER = [
  'Here is the uploader with the retry logic folded in.',
  '',
  '```python',
  '# uploader/retry.py',
  FILLER,
  '',
  'def push_with_backoff(url, payload, attempts=6):',
  '    """Retries the upload with exponential backoff and jitter between tries."""',
  '    delay = 0.5',
  '    for attempt in range(attempts):',
  '        response = session.post(url, json=payload, timeout=10)',
  '        if response.ok:',
  '            return response',
  '        time.sleep(delay + random.random() * delay)',
  '        delay *= 2',
  TAIL,
  '```',
  '',
  'Call it from the nightly job instead of the plain post.',
].join('\n');

describe('a fenced block too long for any passage', () => {
  it('comes as a closed excerpt of whole lines around the best one, with the name that defines it', () => {
    const t = turn('helper', 1, HELPER, 'assistant');
    const pieces = splitPieces(HELPER);
    const best = pieces.findIndex((p) => p.text.includes('exponential backoff and jitter'));
    expect(best).toBeGreaterThan(0);
    expect(counter.count(HELPER)).toBeGreaterThan(3 * DEFAULT_PACK_OPTIONS.maxWholeTokens);
    const result = pack([item(t, 1, best)], 480, env());
    // Before, the block's code was all or nothing: the turn that defines the helper did not come in at all.
    expect(result.decisions.get('helper')).toBe('passage');
    const line = result.records.find((r) => r.id === 'helper')!;
    const shown = line.parts.join('\n');
    expect(shown).toContain('def push_with_backoff(url, payload, attempts=6):');
    expect(shown).toContain('exponential backoff and jitter');
    // A block of its own: the original fence line first, closed at the end, "…" where lines were left out.
    expect(shown.startsWith('```python\n…\n')).toBe(true);
    expect(shown.endsWith('\n…\n```')).toBe(true);
    expect((shown.match(/```/g) ?? []).length).toBe(2);
    // Whole lines only, indentation kept.
    for (const l of shown.split('\n').slice(2, -2)) expect(HELPER.split('\n')).toContain(l);
    expect(counter.count(shown)).toBeLessThanOrEqual(DEFAULT_PACK_OPTIONS.maxExcerptTokens);
  });

  it('shows a run that starts or ends inside a block as a block of its own', () => {
    const text = 'Set these:\n```ini\n[server]\nport = 8443\nworkers = 4\nlog = warn\n```\nThen restart.';
    const at = (s: string) => text.indexOf(s);
    expect(fenceRun(text, at('port'), at('workers'))).toBe('```ini\n…\nport = 8443\n…\n```');
    expect(fenceRun(text, at('[server]'), at('\n```\nThen') + 1)).toBe('```ini\n[server]\nport = 8443\nworkers = 4\nlog = warn\n```');
    expect(fenceRun(text, 0, at('workers'))).toBe('Set these:\n```ini\n[server]\nport = 8443\n…\n```');
    // A piece that starts after a line's indentation still shows the whole line.
    const indented = '```py\ndef f():\n    return 42\n```';
    expect(fenceRun(indented, indented.indexOf('return'), indented.length - 3)).toBe('```py\n…\n    return 42\n```');
    expect(fenceRun('No code here.', 0, 7)).toBe('No code');
  });

  it('shows a block inside a list item, from its indented fence line, with one opening fence', () => {
    const text = 'Rollback:\n1. Pause the jobs.\n2. Bring the old schedule back:\n   ```bash\n   crontab /root/cron_backup\n   ```\n3. Tell the channel.';
    const from = text.indexOf('```bash');
    const shown = fenceRun(text, from, text.indexOf('\n3.'));
    expect(shown).toBe('   ```bash\n   crontab /root/cron_backup\n   ```');
    expect((shown.match(/```/g) ?? []).length).toBe(2);
  });
});

describe('a question that points at the conversation', () => {
  const index = new RetrievalIndex();
  beforeAll(() => {
    index.addTurn({ ...turn('stack', 1, 'going with flask for the api. python 3.11 on the server', 'user', T0), sessionId: 'A' });
    index.addTurn({ ...turn('ok', 2, 'Flask is a fine choice for a small API.', 'assistant', T0), sessionId: 'A' });
    index.addTurn({ ...turn('sorry', 1, 'the refund went through. should I say sorry to the customer too', 'user', T0 + 3 * DAY), sessionId: 'B' });
    index.addTurn({ ...turn('naming', 1, 'We could call the cleanup task nightly_sweep and run it at 02:00.', 'assistant', T0 + 4 * DAY), sessionId: 'C' });
  });
  const ask = (message: string) => askIndex(index, message, { counter, labels, now: T0 + 10 * DAY });

  it('does not match turns on its verbs of recall', () => {
    const q = buildQuery({ message: 'Which Python version did I say the backend runs on? You mentioned it, I think.', entities: [], dates: [] });
    expect([...q.terms.keys()]).toEqual(expect.arrayContaining(['python', 'version', 'backend']));
    for (const t of ['say', 'mention']) expect(q.terms.has(t)).toBe(false);
    const r = ask('Which Python version did I say the backend runs on?');
    expect(r.records.map((l) => l.id)).toContain('stack');
    // Before, "say" alone brought the apology in.
    expect(r.records.map((l) => l.id)).not.toContain('sorry');
  });

  it('does not match turns on the words that say which time it asks about', () => {
    const zh = buildQuery({ message: '夜间同步现在几点跑？', entities: [], dates: [] });
    expect(zh.terms.has('~现在')).toBe(false);
    expect(zh.terms.has('~同步')).toBe(true);
    const en = buildQuery({ message: 'Which CDN are we currently on, now that the move is done?', entities: [], dates: [] });
    expect(en.terms.has('now')).toBe(false);
    expect(en.terms.has('current')).toBe(false);
    expect(en.terms.has('cdn')).toBe(true);
  });

  it('leaves out "call" only where it asks for a name', () => {
    expect(buildQuery({ message: 'What did we call the task that cleans up at night?', entities: [], dates: [] }).terms.has('call')).toBe(false);
    expect(buildQuery({ message: 'The API call times out after ten seconds.', entities: [], dates: [] }).terms.has('call')).toBe(true);
  });
});

describe('questions about a history', () => {
  it('are read as asking for earlier values too', () => {
    expect(asksForEarlierValues('How has the backup schedule changed since we set it up?')).toBe(true);
    expect(asksForEarlierValues('Which hosting providers have we gone through so far?')).toBe(true);
    expect(asksForEarlierValues('What was the first name we gave the project?')).toBe(true);
    expect(asksForEarlierValues('备份时间前后有什么变化？')).toBe(true);
    expect(asksForEarlierValues('到目前为止我们换了几次 CDN？')).toBe(true);
    // Which ones, in the present perfect: every value so far, the old ones included.
    expect(asksForEarlierValues('Which Node versions has the build server run on?')).toBe(true);
    expect(asksForEarlierValues('What regions have we deployed the API to?')).toBe(true);
    expect(asksForEarlierValues('Which region is the API deployed to?')).toBe(false);
    expect(asksForEarlierValues('What port does the gateway listen on now?')).toBe(false);
    expect(asksForEarlierValues('备份现在几点跑？')).toBe(false);
  });
});

describe('a passage among a table\'s rows', () => {
  it('is shown under the table\'s header row', () => {
    const text = 'Your plan for the week:\n\n| Day | Run | Pace |\n|---|---|---|\n| Mon | rest | – |\n| Tue | 8 km easy | 6:10 |\n| Thu | 5 × 1 km | 4:50 |\n\nKeep Sunday free.';
    const at = (s: string) => text.indexOf(s);
    expect(showRun(text, at('| Thu'), at('\n\nKeep'))).toBe('| Day | Run | Pace |\n|---|---|---|\n| Thu | 5 × 1 km | 4:50 |');
    // From the separator row: from the header instead; from the header or before: as written.
    expect(showRun(text, at('|---'), at('| Mon'))).toBe('| Day | Run | Pace |\n|---|---|---|\n');
    expect(showRun(text, 0, at('| Mon'))).toBe(text.slice(0, at('| Mon')));
    // A table inside a fenced block is code, not a table.
    const fenced = '```\n| a | b |\n|---|---|\n| 1 | 2 |\n```';
    expect(showRun(fenced, fenced.indexOf('| 1'), fenced.indexOf('\n```'))).toBe('```\n…\n| 1 | 2 |\n```');
  });
});

describe('a long answer without code', () => {
  it('comes as a short passage around its best sentence, so the block has room for more than two of them', () => {
    const advice = Array.from({ length: 12 }, (_, i) => `Point ${i + 1}: keep the long runs slow and the rest days real, week after week.`);
    advice.splice(6, 0, 'Your tempo pace for the Thursday session is 5:05 per kilometre, held for twenty minutes.');
    const t = turn('plan', 1, advice.join(' '), 'assistant');
    const other = turn('shoes', 2, `${'Rotate two pairs of shoes so the foam recovers between runs. '.repeat(8)}Replace them at about 700 km.`, 'assistant');
    const pieces = splitPieces(t.text);
    const best = pieces.findIndex((p) => p.text.includes('tempo pace'));
    const otherBest = splitPieces(other.text).length - 1;
    const result = pack([item(t, 1, best), item(other, 0.9, otherBest)], 260, env());
    const line = result.records.find((r) => r.id === 'plan')!;
    const shown = line.parts.join(' ');
    expect(shown).toContain('5:05 per kilometre');
    expect(counter.count(shown)).toBeLessThanOrEqual(DEFAULT_PACK_OPTIONS.maxPassageTokens);
    // A long answer with a superseded sentence elsewhere in it comes as short a passage, without that sentence.
    const changed = pack([{ ...item(t, 1, best), superseded: () => new Set([0]) }], 260, env());
    const changedLine = changed.records.find((r) => r.id === 'plan')!.parts.join(' ');
    expect(changedLine).toContain('5:05 per kilometre');
    expect(changedLine).not.toContain('Point 1:');
    expect(counter.count(changedLine)).toBeLessThanOrEqual(DEFAULT_PACK_OPTIONS.maxPassageTokens);
    // The second answer comes in as a passage too, not cut down to one sentence.
    expect(result.decisions.get('shoes')).toBe('passage');
    expect(result.records.find((r) => r.id === 'shoes')!.parts.join(' ')).toContain('Replace them at about 700 km.');
  });
});
