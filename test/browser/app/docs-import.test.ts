/**
 * Data → Import docs: Markdown files become doc chunks in the store's docs namespace (split by heading, each with
 * its file path, anchor and heading), a malformed file is skipped with its reason shown and the rest imported, and
 * the next prompt can quote the docs under the documentation label, never as conversation records. The reply
 * comes from the scripted engine (test/browser/engine/ui-worker.ts): the prompt it is sent is the subject.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { MemoryStore } from '../../../src/memory/store/store.ts';
import { freshStart, mountApp, resetAppStorage, sendAndWait, shadow, unmountApp, waitReady } from './app-helpers.ts';

beforeEach(() => freshStart());
afterEach(async () => {
  await unmountApp();
  await resetAppStorage();
});

const GOOD = `---
title: Widget guide
---
# Widget

Embed it with one tag.

## Attributes

The docs-index attribute names the manifest written by index-docs; the zebra-lantern option is only here.
`;

const BROKEN = '---\ntitle: Never closed\n# Heading\n\nThis text must not be imported.\n';

describe('importing docs', () => {
  it('stores the chunks of the good file, shows why the malformed one was skipped, and the prompt can use them', async () => {
    const { app, dbName } = mountApp({ engine: 'scripted' });
    await waitReady(app);
    await userEvent.click(page.getByRole('button', { name: 'Data' }));
    const panel = shadow(app).querySelector('qwen-data-panel')!;
    expect(shadow(panel).querySelector('input[webkitdirectory]')).not.toBeNull();

    await userEvent.upload(page.getByLabelText('Choose Markdown files'), [
      new File([GOOD], 'widget.md', { type: 'text/markdown' }),
      new File([BROKEN], 'broken.md', { type: 'text/markdown' }),
      new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'logo.png', { type: 'image/png' }),
    ]);
    await expect.element(page.getByText('Imported 1 docs (2 chunks); 1 skipped.')).toBeVisible();
    await expect.element(page.getByText('Skipped broken.md: front matter is not terminated (no closing "---")')).toBeVisible();

    const store = await MemoryStore.open({ name: dbName });
    try {
      expect((await store.listDocs()).map((d) => [d.docId, d.source, d.chunks])).toEqual([['file:widget.md', 'widget.md', 2]]);
      const chunks = await store.listDocChunks('file:widget.md');
      expect(chunks.map((c) => [c.text, c.meta])).toEqual([
        ['Widget\n\nEmbed it with one tag.', { url: 'widget.md', anchor: 'widget', title: 'Widget guide', heading: 'Widget' }],
        [
          'Widget › Attributes\n\nThe docs-index attribute names the manifest written by index-docs; the zebra-lantern option is only here.',
          { url: 'widget.md', anchor: 'attributes', title: 'Widget guide', heading: 'Widget › Attributes' },
        ],
      ]);
      for (const c of chunks) expect(c.embedding).not.toBeNull();
    } finally {
      await store.close();
    }

    // The next prompt finds the doc and labels it as documentation, with its file path and heading.
    await userEvent.click(page.getByRole('button', { name: 'Data', exact: true }));
    await sendAndWait(app, 'What does the zebra-lantern option do?');
    const prompt = app.chat.lastSnapshot!.messages.map((m) => m.content).join('\n');
    expect(prompt).toContain('[Documentation]');
    expect(prompt).toContain('widget.md › Widget › Attributes');
    expect(prompt).toContain('the zebra-lantern option is only here');
    expect(prompt).not.toContain('This text must not be imported');
  });
});
