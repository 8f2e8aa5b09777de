/**
 * Serves one file from anywhere on disk through a dev-server middleware, with HTTP ranges (wllama reads a GGUF in
 * ranged parts): `npm run check:gpu -- --gguf <file>` and `npm run eval -- --embedding-model <file>` use it, so a
 * model file needs no copying into public/.
 */
import { createReadStream, statSync } from 'node:fs';
import type { ServerResponse } from 'node:http';

export function serveFileRange(file: string, range: string | undefined, res: ServerResponse, head: boolean, headers: Record<string, string> = {}): void {
  const size = statSync(file).size;
  res.setHeader('Accept-Ranges', 'bytes');
  res.setHeader('Content-Type', 'application/octet-stream');
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  let start = 0;
  let end = size - 1;
  const match = range === undefined ? null : /^bytes=(\d*)-(\d*)$/.exec(range);
  if (match !== null && (match[1] !== '' || match[2] !== '')) {
    if (match[1] === '') start = Math.max(0, size - Number(match[2]));
    else {
      start = Number(match[1]);
      if (match[2] !== '') end = Math.min(end, Number(match[2]));
    }
    if (start > end || start >= size) {
      res.statusCode = 416;
      res.setHeader('Content-Range', `bytes */${size}`);
      res.end();
      return;
    }
    res.statusCode = 206;
    res.setHeader('Content-Range', `bytes ${start}-${end}/${size}`);
  } else res.statusCode = 200;
  res.setHeader('Content-Length', String(Math.max(0, end - start + 1)));
  if (head || size === 0) {
    res.end();
    return;
  }
  createReadStream(file, { start, end }).pipe(res);
}
