import { describe, expect, it } from 'vitest';
import { MAX_PIECE_CHARS, contentSize, splitPieces } from '../../../src/memory/retrieval/pieces.ts';

describe('sentence pieces', () => {
  it('are exact slices of the turn, in order', () => {
    const text = 'Hey Mel! Good to see you! I went to a support group yesterday and it was so powerful. Did you go?';
    const pieces = splitPieces(text);
    for (const p of pieces) expect(text.slice(p.start, p.end)).toBe(p.text);
    expect(pieces.map((p) => p.text).join(' ')).toBe(text);
    // A short last sentence joins the one before it; the informative sentence stays whole inside one piece.
    expect(pieces.some((p) => p.text.includes('I went to a support group yesterday and it was so powerful.'))).toBe(true);
    expect(pieces.at(-1)!.text.endsWith('Did you go?')).toBe(true);
  });

  it('merge sentences too short to say anything alone', () => {
    const pieces = splitPieces('Wow! Thanks! That concert last night was the best one I have seen.');
    expect(pieces.every((p) => contentSize(p.text) >= 4)).toBe(true);
  });

  it('split Chinese at its punctuation and cut overlong sentences', () => {
    const zh = splitPieces('服务器192.168.1.20上的Nginx返回502。我们重启了php-fpm之后恢复正常了！明天再观察一下日志文件的变化。');
    expect(zh.length).toBe(3);
    const long = 'word '.repeat(200).trim();
    const parts = splitPieces(long);
    expect(parts.length).toBeGreaterThan(1);
    expect(parts.every((p) => p.text.length <= MAX_PIECE_CHARS)).toBe(true);
    expect(splitPieces('  ')).toEqual([]);
  });

  it('keep a code fence with its block: a closing fence joins the code, never the prose after it', () => {
    const text = [
      'Rotate the keys nightly.',
      '',
      '```bash',
      'vault write -f transit/keys/app/rotate',
      '```',
      '',
      'Then restart the workers so they pick up the new key.',
      '',
      '## Notes',
      '',
      '```yaml',
      'rotation_period: 24h',
      '```',
    ].join('\n');
    const pieces = splitPieces(text).map((p) => p.text);
    expect(pieces).toContain('Then restart the workers so they pick up the new key.');
    expect(pieces).toContain('```bash\nvault write -f transit/keys/app/rotate\n```');
    // (A short heading before an opening fence stays apart from the code.)
    expect(pieces).toContain('## Notes');
    expect(pieces).toContain('```yaml\nrotation_period: 24h\n```');
  });

  it("keep a table's rows together and apart from the prose after the table: a short last row goes back to the rows", () => {
    const text = [
      'The shelves we measured for the workshop:',
      '',
      '| shelf | width |',
      '|---|---|',
      '| oak | 90 cm |',
      '| pine | 120 cm |',
      '| birch | 60 cm |',
      '| ash | 75 cm |',
      '',
      'The ash shelf goes above the bench once the brackets arrive on Friday.',
      '| a | b |',
      '|---|---|',
      '| c | 1 |',
      'Done.',
    ].join('\n');
    const pieces = splitPieces(text).map((p) => p.text);
    expect(pieces).toContain('The ash shelf goes above the bench once the brackets arrive on Friday.');
    expect(pieces).toContain('| pine | 120 cm |\n| birch | 60 cm |\n| ash | 75 cm |');
    // (Nor does a short line after a table, the text's last, join the table's rows.)
    expect(pieces.at(-1)).toBe('Done.');
    expect(pieces.filter((p) => p.includes('|') && /[a-z]{4,}\./i.test(p.replace(/\|[^\n]*\|/g, '')))).toEqual([]);
  });
});
