/**
 * The concepts of the tiny embedding test model (embedding-model.ts), kept apart from the generator so that
 * browser tests can import them (no Node modules here). Each concept is a list of surface words, English and
 * Chinese; the model maps every token of those words to the concept's own embedding direction, so a text that
 * mentions any of a concept's words, in either language, is near the other texts that mention one.
 *
 * The words were picked so that their tokens are specific: a word whose capitalised or unspaced spelling splits
 * into a generic piece (`apples` → `app` + `les`, `postgres` → `Post` + `gres`) is left out.
 */
export const EMBEDDING_CONCEPTS = {
  fruit: ['apple', 'fruit', 'orange', '苹果', '水果'],
  bicycle: ['bicycle', 'bike', '自行车', '单车'],
  rain: ['rain', 'storm', '下雨'],
  database: ['database', 'SQL', '数据库'],
  cat: ['cat', 'kitten', '猫'],
} as const satisfies Record<string, readonly string[]>;

export type EmbeddingConcept = keyof typeof EMBEDDING_CONCEPTS;

/** A concept table: concept name → its surface words. */
export type ConceptTable = Readonly<Record<string, readonly string[]>>;

/** The concept whose word list holds `word` (compared trimmed and case-insensitively), or null. */
export function conceptOf(word: string): EmbeddingConcept | null {
  const w = word.trim().toLowerCase();
  for (const [concept, words] of Object.entries(EMBEDDING_CONCEPTS) as Array<[EmbeddingConcept, readonly string[]]>) {
    if (words.some((x) => x.toLowerCase() === w)) return concept;
  }
  return null;
}

/** One English and one Chinese document per concept, and one of each about none: what the tests search. */
export const EMBEDDING_EXAMPLES: ReadonlyArray<{ text: string; concept: EmbeddingConcept | null }> = [
  { text: 'I ate an apple with lunch today.', concept: 'fruit' },
  { text: 'She rides her bicycle to work every morning.', concept: 'bicycle' },
  { text: 'The forecast says heavy rain all weekend.', concept: 'rain' },
  { text: 'The database migration took three hours.', concept: 'database' },
  { text: 'Our cat sleeps on the sofa all afternoon.', concept: 'cat' },
  { text: 'The meeting was moved to Thursday.', concept: null },
  { text: '我每天早上吃一个苹果。', concept: 'fruit' },
  { text: '我的自行车坏了。', concept: 'bicycle' },
  { text: '明天会下雨。', concept: 'rain' },
  { text: '我们的数据库很慢。', concept: 'database' },
  { text: '我家的猫很懒。', concept: 'cat' },
  { text: '今天开会。', concept: null },
];
