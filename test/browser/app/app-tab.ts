/**
 * The chat app as a second (or third) tab for the multi-tab tests, loaded in an iframe: its own document, engine
 * worker, IndexedDB connection, BroadcastChannel and Web Locks, on the scripted UI engine (the real handler and
 * worker protocol, a fixed reply: test/browser/engine/ui-worker.ts): these tests are about storage, locks and live
 * refresh between tabs, not about what a model answers. `?db=` names the database.
 * The test drives it through the iframe's DOM, as a user would; reloading the iframe reloads the tab.
 */
import './tab-shim.ts';
import '../../../src/ui/qwen-chat-app.ts';
import { EngineClient } from '../../../src/engine/client.ts';
import { SCRIPTED_MODEL_URL, createScriptedUiWorker } from '../engine/ui-script.ts';

const db = new URLSearchParams(location.search).get('db');
if (db === null) throw new Error('app-tab.html needs ?db=<database name>');
const app = document.createElement('qwen-chat-app');
app.client = new EngineClient({ heartbeatTimeoutMs: 5_000, createWorker: createScriptedUiWorker });
app.dbName = db;
app.source = { ggufUrl: SCRIPTED_MODEL_URL };
app.backend = 'wasm';
app.autoload = true;
app.style.cssText = 'display:block;height:700px;width:1100px';
document.body.replaceChildren(app);
