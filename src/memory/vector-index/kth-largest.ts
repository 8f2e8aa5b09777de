/**
 * Selection without sorting, for the searches that keep hundreds of the best of thousands (the vector index's
 * floor, BM25's sentence hits). Pure, no DOM.
 */

/**
 * The k-th largest of `values[0, n)` (1 ≤ k ≤ n, no NaN), repeats counted, as a sorted copy would give it.
 * Reorders those values so that the k largest end the range. Hoare's selection with a median-of-three pivot:
 * O(n) on average.
 */
export function kthLargest(values: Float64Array, n: number, k: number): number {
  const at = n - k; // its index in ascending order
  let lo = 0;
  let hi = n - 1;
  while (lo < hi) {
    const a = values[lo]!;
    const b = values[(lo + hi) >> 1]!;
    const c = values[hi]!;
    const pivot = a < b ? (b < c ? b : a < c ? c : a) : a < c ? a : b < c ? c : b;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (values[i]! < pivot) i++;
      while (values[j]! > pivot) j--;
      if (i <= j) {
        const swap = values[i]!;
        values[i++] = values[j]!;
        values[j--] = swap;
      }
    }
    // Now [lo, j] ≤ pivot ≤ [i, hi], and whatever lies strictly between j and i equals the pivot.
    if (at <= j) hi = j;
    else if (at >= i) lo = i;
    else break;
  }
  return values[at]!;
}
