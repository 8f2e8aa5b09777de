import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, SETTINGS_STORAGE_KEY, loadSettings, validateSettings, type AppSettings } from '../../../src/ui/data/settings.ts';

const storage = (value: unknown): Storage => ({ getItem: (key: string) => (key === SETTINGS_STORAGE_KEY ? JSON.stringify(value) : null) }) as unknown as Storage;

describe('the embedder setting', () => {
  it('takes the built-in vectors, keywords, or the engine’s embedding model, and nothing else', () => {
    for (const embedder of ['hashed', 'keywords', 'engine'] as const) expect(validateSettings({ ...DEFAULT_SETTINGS, embedder })).toEqual([]);
    expect(validateSettings({ ...DEFAULT_SETTINGS, embedder: 'neural' } as unknown as AppSettings)).toEqual([{ field: 'embedder', key: 'settings.error.embedder' }]);
  });

  it('a saved choice of the engine’s model survives a reload; an unknown one falls back to the defaults', () => {
    expect(loadSettings(storage({ ...DEFAULT_SETTINGS, embedder: 'engine' })).embedder).toBe('engine');
    expect(loadSettings(storage({ ...DEFAULT_SETTINGS, embedder: 'neural' })).embedder).toBe('hashed');
  });
});
