/// <reference lib="webworker" />
/**
 * The real engine worker (src/engine/worker.ts: the real handler, the real web-llm backend) with the synthetic MLC
 * folder served inside it. The interceptor is imported first, so it is in place before any engine code runs.
 */
import './mlc-layout-intercept.ts';
import '../../../src/engine/worker.ts';
