// r and s with reply templates (README: Triage): the templates are read when the key is pressed
// (one written meanwhile is offered), then picked by typing, as the assign picker; the editor
// then opens with the one picked, filled for the ticket. "(no template)" does what r and s do
// without templates, and so does the key when there are none.
import type { TriageEvent } from './events.js';
import type { Choice, TemplatePurpose } from './picker.js';
import type { TriageState } from './state.js';
import { actOn, unchanged, type Step } from './transitions.js';

/** The picker's first entry: the blank text, as without templates. */
export const NO_TEMPLATE: Choice = { label: '(no template)', value: '' };

/** r on ticket `id`: the editor, empty or with the reply kept from a failed send. */
export function replyTo(state: TriageState, id: number): Step {
  return actOn(state, id, { kind: 'reply', ticket: state.details.get(id)?.ticket, draft: state.drafts.reply.get(id) });
}

/**
 * s on ticket `id`: the prompt for the resolution notes, with the notes kept from a failed
 * resolve; notes of more than a line (written in the editor, from a template) in the editor.
 */
export function resolveTo(state: TriageState, id: number): Step {
  const kept = (state.drafts.resolution.get(id) ?? '').replace(/\n+$/, '');
  if (kept.includes('\n')) return actOn(state, id, { kind: 'resolveInEditor', ticket: state.details.get(id)?.ticket, draft: kept });
  return unchanged({ ...state, overlay: { kind: 'prompt', label: `Resolution notes for #${id}`, text: kept, cursor: kept.length, resolves: id } });
}

/** What r or s does without a template. */
const withoutTemplate = (state: TriageState, id: number, purpose: TemplatePurpose) => (purpose === 'reply' ? replyTo(state, id) : resolveTo(state, id));

/** The templates are known: the picker, or what the key does without templates when there are none. */
export function templatesRead(state: TriageState, event: Extract<TriageEvent, { kind: 'templatesRead' }>): Step {
  const { id, purpose, names } = event;
  // Not over a prompt or picker opened meanwhile: what is typed there would be lost.
  if (state.overlay !== undefined) return unchanged(state);
  if (names.length === 0) return withoutTemplate(state, id, purpose);
  const choices = [NO_TEMPLATE, ...names.map((name) => ({ label: name, value: name }))];
  const title = purpose === 'reply' ? `Reply to #${id} with` : `Resolve #${id} with`;
  return unchanged({ ...state, overlay: { kind: 'picker', title, query: '', cursor: 0, choices, selected: 0, fillsTemplate: { id, purpose } } });
}

/** Enter in the template picker: the editor with the template filled, or the blank text. */
export function templateChosen(state: TriageState, target: { id: number; purpose: TemplatePurpose }, choice: Choice): Step {
  const { id, purpose } = target;
  if (choice.value === NO_TEMPLATE.value) return withoutTemplate(state, id, purpose);
  const ticket = state.details.get(id)?.ticket;
  return actOn(
    state,
    id,
    purpose === 'reply'
      ? { kind: 'reply', ticket, draft: undefined, template: choice.value }
      : { kind: 'resolveInEditor', ticket, draft: undefined, template: choice.value },
  );
}
