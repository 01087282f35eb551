// mjml 5 ships no types; this is the part of its API server/mail/render.ts uses.
declare module 'mjml' {
  export type MjmlError = { line: number; message: string; tagName: string; formattedMessage: string };
  export type MjmlOptions = {
    validationLevel?: 'strict' | 'soft' | 'skip';
    /** Web fonts to link when the layout names them; `{}` links none. */
    fonts?: Record<string, string>;
    keepComments?: boolean;
    minify?: boolean;
    beautify?: boolean;
  };
  export default function mjml2html(
    input: string,
    options?: MjmlOptions,
  ): Promise<{ html: string; errors: MjmlError[] }>;
}
