export const BUILD_INPUTS: string[];
export const BUILD_OUTPUTS: string[];
export const STAMP: string;
export function inputsDigest(root: string, inputs?: string[]): Promise<string>;
export function buildDecision(
  root: string,
  options?: { inputs?: string[]; outputs?: string[]; stamp?: string },
): Promise<{ build: boolean; reason: string; digest: string }>;
export function writeStamp(root: string, digest: string, stamp?: string): Promise<void>;
