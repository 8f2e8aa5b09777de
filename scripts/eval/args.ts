/**
 * The evals' command lines: each flag in turn, with a way to take the value after it (an error naming the flag
 * when there is none).
 */
export function eachArg(argv: readonly string[], read: (flag: string, value: () => string) => void): void {
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    read(flag, () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${flag} needs a value`);
      return v;
    });
  }
}
