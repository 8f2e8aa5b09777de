/**
 * The chat app as a second (or third) tab for the multi-tab tests, loaded in an iframe: its own document, engine
 * worker, IndexedDB connection, BroadcastChannel and Web Locks, on the test model. `?db=` names the database.
 * The test drives it through the iframe's DOM, as a user would; reloading the iframe reloads the tab.
 */
import './tab-shim.ts';
import '../../../src/ui/qwen-chat-app.ts';
import { TINY_MODEL_URL, clientWithWorkers } from '../helpers.ts';

const db = new URLSearchParams(location.search).get('db');
if (db === null) throw new Error('app-tab.html needs ?db=<database name>');
const app = document.createElement('qwen-chat-app');
app.client = clientWithWorkers(5_000).client;
app.dbName = db;
app.source = { ggufUrl: TINY_MODEL_URL };
app.backend = 'wasm';
app.autoload = true;
app.style.cssText = 'display:block;height:700px;width:1100px';
document.body.replaceChildren(app);
