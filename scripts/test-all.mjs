/**
 * `npm test`: the typecheck and the Vitest suite side by side, failing if either fails. The suite's first half
 * minute (two builds and two dev servers starting) leaves a core idle that the typecheck can use. Arguments are
 * passed to Vitest.
 */
import { spawn } from 'node:child_process';

function run(command, args) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'inherit', shell: process.platform === 'win32' });
    child.on('error', (error) => {
      console.error(`${command}: ${error.message}`);
      resolve(1);
    });
    child.on('exit', (code, signal) => resolve(code ?? (signal === null ? 0 : 1)));
  });
}

const [typecheck, suite] = await Promise.all([
  run('npm', ['run', '--silent', 'typecheck']),
  run('npx', ['vitest', 'run', ...process.argv.slice(2)]),
]);
if (typecheck !== 0) console.error('\nThe typecheck failed (its errors are above).');
process.exit(typecheck !== 0 ? typecheck : suite);
