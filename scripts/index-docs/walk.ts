/**
 * The docs files of a folder: every .md/.markdown/.html/.htm below it, recursively, as `/`-separated paths relative
 * to the folder, sorted (code-point order, so the same folder always gives the same manifest). Hidden folders
 * (`.git`, …) and `node_modules` are not entered; symbolic links are not followed.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { docKind } from '../../src/docs-index/page.ts';

export async function listDocFiles(folder: string): Promise<string[]> {
  const out: string[] = [];
  const visit = async (dir: string, prefix: string): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true });
    for (const entry of entries) {
      const rel = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!entry.name.startsWith('.') && entry.name !== 'node_modules') await visit(join(dir, entry.name), rel);
      } else if (entry.isFile() && docKind(entry.name) !== null) out.push(rel);
    }
  };
  await visit(folder, '');
  return out.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
