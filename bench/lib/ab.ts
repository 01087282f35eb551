import { median } from './stats';

/**
 * A/B in the same run: the machine is shared and noisy, so a figure is only ever a
 * ratio against a baseline measured alternately with it, A B A B A B..., and the median of each
 * side is quoted. `measure` returns the figure of one round (requests/s, ms...).
 */
export type AbResult = {
  baseline: number[];
  candidate: number[];
  baselineMedian: number;
  candidateMedian: number;
  /** candidateMedian / baselineMedian. */
  ratio: number;
};

export async function alternate(
  rounds: number,
  baseline: () => Promise<number>,
  candidate: () => Promise<number>,
): Promise<AbResult> {
  if (rounds < 3) throw new Error('at least 3 alternating rounds (a median of fewer says little)');
  const a: number[] = [];
  const b: number[] = [];
  for (let round = 0; round < rounds; round++) {
    // Swap which side goes first every round, so neither always runs on a warmer machine.
    if (round % 2 === 0) {
      a.push(await baseline());
      b.push(await candidate());
    } else {
      b.push(await candidate());
      a.push(await baseline());
    }
  }
  const baselineMedian = median(a);
  const candidateMedian = median(b);
  return {
    baseline: a,
    candidate: b,
    baselineMedian,
    candidateMedian,
    ratio: candidateMedian / baselineMedian,
  };
}
