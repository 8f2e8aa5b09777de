/**
 * CPU milliseconds this test process has used: bounds on work (a pattern that backtracks, a quadratic loop) are
 * checked against it rather than the wall clock, which a busy machine stretches without the code doing more.
 */
export function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}
