import { ruleInWords } from '../../../shared/checklist-rules';
import type { Template } from '../../../shared/schemas/templates';

export type TemplateDocument = {
  /** The document's name, marked when it is optional or conditional. */
  name: string;
  /** A conditional document's rule in words ("Required when ..."), else null. */
  rule: string | null;
};

/** A template's documents as its list shows them: required, optional, then conditional. */
export function documentsOf(
  template: Pick<Template, 'forms' | 'optionalForms'> & Partial<Pick<Template, 'conditionalForms'>>,
): TemplateDocument[] {
  return [
    ...template.forms.map((name) => ({ name, rule: null })),
    ...template.optionalForms.map((name) => ({ name: `${name} (optional)`, rule: null })),
    ...(template.conditionalForms ?? []).map((form) => ({
      name: `${form.label} (conditional)`,
      rule: ruleInWords(form.when),
    })),
  ];
}
