/// <reference lib="webworker" />
/**
 * An engine worker for UI tests: the real handler (src/engine/handler.ts) over the real worker protocol, serving the
 * scripted backend of ui-backend.ts, which plays the test models' parts (see ui-script.ts) without downloading or
 * running one.
 */
import { serveBackend } from './serve-backend.ts';
import { ScriptedUiBackend } from './ui-backend.ts';

serveBackend(new ScriptedUiBackend());
