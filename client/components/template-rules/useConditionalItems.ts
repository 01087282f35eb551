import { useEffect, useState } from 'react';
import type { ApiIssue } from '../../../shared/schemas/common';
import { type ItemDraft, itemsOf, type RuleAnswer } from './conditional-items';

/**
 * Messages of the conditional items by their path under `conditionalForms` ('0.when.1.value'),
 * from zod's issues or the server's (`conditionalForms.0.when.1.value`); '' is the list itself.
 */
export function conditionalErrorsOf(
  issues: ReadonlyArray<{ path: string | PropertyKey[]; message: string }>,
) {
  const errors: Record<string, string> = {};
  for (const issue of issues) {
    const path = typeof issue.path === 'string' ? issue.path : issue.path.map(String).join('.');
    if (path !== 'conditionalForms' && !path.startsWith('conditionalForms.')) continue;
    errors[path.slice('conditionalForms.'.length)] ??= issue.message;
  }
  return errors;
}

/** The editor's items, and the errors shown on them: the form's own checks or the server's. */
export function useConditionalItems(
  initial: readonly RuleAnswer[] | undefined,
  serverIssues: ApiIssue[] | undefined,
) {
  const [items, setItems] = useState<ItemDraft[]>(() => itemsOf(initial ?? []));
  const [errors, setErrors] = useState<Record<string, string>>({});
  // A refusal the server answered shows where it points, until the next change.
  useEffect(() => {
    if (serverIssues) setErrors(conditionalErrorsOf(serverIssues));
  }, [serverIssues]);
  const change = (next: ItemDraft[]) => {
    setItems(next);
    setErrors({});
  };
  return { items, errors, change, setErrors };
}
