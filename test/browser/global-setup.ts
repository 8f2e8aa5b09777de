/** Browser tests need the generated test model; `npm test` makes it first (pretest). Fail early and clearly if missing. */
import { existsSync } from 'node:fs';

export default function setup(): void {
  const model = 'public/models/test/qwen2-tiny.gguf';
  if (!existsSync(model)) {
    throw new Error(`${model} is missing: run \`npm run test-model\` first (npm test does it for you).`);
  }
}
