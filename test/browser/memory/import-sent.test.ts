/** An import keeps how much of a long user message the model got (issue 15), so its notice survives a move. */
import { afterEach, expect, it } from 'vitest';
import { buildExport, exportMessages, parseExport } from '../../../src/ui/data/export-format.ts';
import { dbName, dropDB, openStore } from './helpers.ts';

const names: string[] = [];
afterEach(async () => {
  for (const name of names.splice(0)) await dropDB(name);
});

it('an exported long message comes back from the import with its sent part, a reply without one', async () => {
  const from = dbName('export-sent-from');
  const to = dbName('export-sent-to');
  names.push(from, to);
  const content = 'A long pasted paragraph. '.repeat(2_000);
  const source = await openStore(from);
  const session = await source.createSession({ title: 'Long' });
  await source.importTurns(session.id, [
    { role: 'user', content, sent: { chars: 8_000, tokens: 1_700 } },
    { role: 'assistant', content: 'A reply.' },
  ]);
  const file = JSON.stringify(buildExport([{ id: session.id, title: 'Long', createdAt: 1, updatedAt: 2, messages: exportMessages(await source.listTurns(session.id)) }]));
  await source.close();

  const target = await openStore(to);
  try {
    const parsed = parseExport(file).conversations[0]!;
    const copy = await target.createSession({ title: parsed.title });
    await target.importTurns(copy.id, parsed.messages);
    const [question, reply] = await target.listTurns(copy.id);
    expect(question!.content).toBe(content);
    expect(question!.sent).toEqual({ chars: 8_000, tokens: 1_700 });
    expect(reply!.sent).toBeUndefined();
  } finally {
    await target.close();
  }
});
