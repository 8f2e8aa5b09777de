/** What the GPU-loss engine (gpu-loss-worker.ts) answers on its GPU, shared with the test that drives it. */
export const GPU_REPLY_TOKENS = ['Answered', ' ', 'on', ' ', 'the', ' ', 'GPU', '.'];
export const GPU_REPLY = GPU_REPLY_TOKENS.join('');

export const createGpuLossWorker = (): Worker => new Worker(new URL('./gpu-loss-worker.ts', import.meta.url), { type: 'module', name: 'qwen-engine-gpu-loss' });
