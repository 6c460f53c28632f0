/**
 * Spec §2 helper: opens a new window showing 'Loading', then fills it with the fetched HTML, or shows
 * 'Could not load HTML'. The window is opened synchronously in the click (popup blockers allow that).
 */
export const PRINT_LOADING_TEXT = 'Loading';
export const PRINT_FAILED_TEXT = 'Could not load HTML';

export async function openHtmlWindow(load: () => Promise<string>): Promise<Window | null> {
  const win = window.open('', '_blank');
  if (!win) return null;
  win.document.title = PRINT_LOADING_TEXT;
  win.document.body.textContent = PRINT_LOADING_TEXT;
  try {
    const html = await load();
    win.document.open();
    win.document.write(html);
    win.document.close();
  } catch {
    win.document.body.textContent = PRINT_FAILED_TEXT;
  }
  return win;
}
