/**
 * The embed entry, built to `qwen-assistant.js`: defines `<qwen-assistant>` and nothing else. The runtime
 * (engine, tokenizer, docs index) and the Markdown renderer load with `import()` on first use.
 */
export { QwenAssistant } from './qwen-assistant.ts';
