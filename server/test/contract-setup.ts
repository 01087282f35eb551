import { afterAll } from 'vitest';
import { takeContractViolations } from './contract';

/**
 * The server project's setup file: a test file fails when any answer its apps gave, or any webhook
 * body its changes recorded, is outside the OpenAPI document (server/test/contract.ts). This
 * afterAll runs after the file's own (hooks after tests run last-registered first), so it sees
 * every answer and the webhook check made while dropping the file's database.
 */
afterAll(() => {
  const violations = takeContractViolations();
  if (violations.length === 0) return;
  const shown = violations.slice(0, 20);
  throw new Error(
    `${violations.length} answer(s) outside the OpenAPI document (fix the document, or the server where it strays from it):\n` +
      shown.map((line) => `- ${line}`).join('\n') +
      (violations.length > shown.length ? `\n... and ${violations.length - shown.length} more` : ''),
  );
});
