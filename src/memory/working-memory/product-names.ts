/**
 * The one-word product names of the vocabulary (vocab-products.ts), as a statement reads its values: "use pnpm",
 * "the proxy is nginx" give a value though the name is a plain lower-case word. Names that are also common words
 * ("react", "windows", "stripe", "alpine", a book's "kafka", a yoga "asana") are left out of the case-blind set;
 * `exactNames` match only as written.
 */
import { PRODUCT_GROUPS } from './vocab-products.ts';

const COMMON_WORDS = new Set([
  'ack', 'alpine', 'asana', 'bash', 'bind', 'bootstrap', 'canary', 'claude', 'coding', 'confluence', 'cypress',
  'django', 'dragonfly', 'drizzle', 'elixir', 'elk', 'envoy', 'fedora', 'flask', 'gatsby', 'gemma', 'gentoo', 'ionic',
  'jasmine', 'jenkins', 'jetty', 'kafka', 'kimi', 'kinesis', 'kratos', 'lark', 'llama', 'loki', 'mamba', 'mercurial',
  'microservice', 'microservices', 'mistral', 'mongoose', 'monolith', 'monolithic', 'mosquitto', 'nomad', 'obsidian',
  'oracle', 'pacman', 'passkey', 'passkeys', 'pinpoint', 'pip', 'playwright', 'pulsar', 'puppeteer', 'rails',
  'railway', 'react', 'ruby', 'selenium', 'serverless', 'spaces', 'spinnaker', 'storybook', 'stripe', 'sublime',
  'telegram', 'thanos', 'tomcat', 'varnish', 'windows', 'yum',
]);

export interface ProductNames {
  /** Lower-cased names matched whatever their case. */
  readonly anyCase: ReadonlySet<string>;
  /** Names matched only as written (they are also common words: Go, Express, Edge). */
  readonly asWritten: ReadonlySet<string>;
}

let names: ProductNames | null = null;
export function productNames(): ProductNames {
  if (names !== null) return names;
  const anyCase = new Set<string>();
  const asWritten = new Set<string>();
  for (const group of PRODUCT_GROUPS) {
    for (const name of group.names) {
      if (!/\s/.test(name) && !COMMON_WORDS.has(name.toLowerCase())) anyCase.add(name.toLowerCase());
    }
    for (const name of group.exactNames ?? []) if (!/\s/.test(name)) asWritten.add(name);
  }
  return (names = { anyCase, asWritten });
}
