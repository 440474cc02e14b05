import { h } from '../dom.ts';

// The seed box, as the map page's panel and the home page show it: a labelled field, "Show map",
// a hint and an error line, which the page fills.

export interface SeedForm {
  form: HTMLFormElement;
  input: HTMLInputElement;
  error: HTMLElement;
}

/** `hint` is read with the field (aria-describedby); `submit` gets what was typed. */
export function seedForm(hint: HTMLElement, submit: (raw: string) => void, placeholder: string): SeedForm {
  const input = h('input', {
    id: 'seed-input',
    name: 'seed',
    type: 'text',
    inputmode: 'numeric',
    autocomplete: 'off',
    spellcheck: 'false',
    pattern: '[0-9]*',
    placeholder,
    'aria-describedby': 'seed-hint seed-error',
  });
  hint.id = 'seed-hint';
  const error = h('p', { id: 'seed-error', class: 'field-error', 'aria-live': 'assertive' });
  const form = h(
    'form',
    { class: 'seed-form', role: 'search', 'aria-label': 'Open a seed', novalidate: true },
    h('label', { for: 'seed-input' }, 'Seed'),
    h(
      'div',
      { class: 'seed-input-row' },
      input,
      h('button', { type: 'submit', class: 'primary' }, 'Show map'),
    ),
    hint,
    error,
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    submit(input.value);
  });
  return { form, input, error };
}
