/**
 * The one reply the generated tiny test model gives after any ChatML prompt that ends with
 * `<|im_start|>assistant\n`. Browser tests import this file too: keep it free of Node imports.
 *
 * Qwen2.5 tokenizes it into 20 distinct tokens (none of them "\n"), so the model can encode
 * it as a chain of bigrams. 𝄞 (U+1D11E) spans three byte-level tokens, so a streaming client
 * sees incomplete UTF-8 between chunks.
 */
export const TEST_MODEL_REPLY = '你好！我是测试模型。I am the tiny test model 𝄞 — replies are fixed.';
