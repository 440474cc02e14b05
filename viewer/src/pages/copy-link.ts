// "Copy link": puts the address of the view on screen (the deep link of its whole state) on the
// clipboard, and says so on the button for a moment. Where the Clipboard API is refused (a page
// served over plain http), a selected text field and the copy command do it.

const SHOWN_MS = 2000;

function copyByCommand(text: string): boolean {
  const field = document.createElement('textarea');
  field.value = text;
  field.setAttribute('readonly', '');
  field.className = 'visually-hidden';
  document.body.append(field);
  field.select();
  const done = document.execCommand('copy');
  field.remove();
  return done;
}

export async function copyLink(button: HTMLButtonElement): Promise<void> {
  const text = location.href;
  let done = false;
  try {
    await navigator.clipboard.writeText(text);
    done = true;
  } catch {
    done = copyByCommand(text);
  }
  const [text0, label0] = [button.textContent, button.getAttribute('aria-label') ?? ''];
  button.textContent = done ? 'Copied' : 'Not copied';
  button.setAttribute('aria-label', done ? 'Link copied' : 'Link not copied');
  button.dataset.copied = String(done);
  window.setTimeout(() => {
    button.textContent = text0;
    button.setAttribute('aria-label', label0);
    delete button.dataset.copied;
  }, SHOWN_MS);
}
