import type { Plugin } from 'esbuild';

export const WASM_BASE64_MODULE: string;
export function prismaWasmFromFile(chunksDir: string): Plugin;
