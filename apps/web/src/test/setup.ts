import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';

// Test files share a worker's module registry (isolate: false, vitest.config.ts): each file starts with fresh
// instances of the app's own modules, so module state such as the first screen of a visit never leaks between files.
vi.resetModules();
// The worker's document is shared too: each file starts from a blank page at the root, on real timers.
document.title = '';
for (const name of document.documentElement.getAttributeNames()) document.documentElement.removeAttribute(name);
document.head.replaceChildren();
document.body.replaceChildren();
window.history.replaceState(null, '', '/');
vi.useRealTimers();

// An unexpected console error or warning fails the test (epic-stack's rule): React warnings are bugs.
beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    throw new Error(`console.error called: ${args.map(String).join(' ')}`);
  });
  vi.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => {
    throw new Error(`console.warn called: ${args.map(String).join(' ')}`);
  });
});

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  window.localStorage.clear();
  window.sessionStorage.clear();
});

// jsdom has no ResizeObserver; the date picker's popup positioning (floating-ui) asks for one.
if (!('ResizeObserver' in globalThis)) {
  globalThis.ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  } as unknown as typeof ResizeObserver;
}

// Screens load lazily (one chunk per route); on a busy 2-core CI machine the first import of a chunk can
// take more than Testing Library's default 1 s, so waits get 5 s. Assertions are unchanged.
configure({ asyncUtilTimeout: 5000 });

// jsdom has no modal dialogs: open and close them as attributes (and fire 'close' as a browser does).
if (!HTMLDialogElement.prototype.showModal) {
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
    this.removeAttribute('open');
    this.dispatchEvent(new Event('close'));
  };
}

// jsdom does not scroll; the router's scroll restoration calls scrollTo on every navigation.
window.scrollTo = (() => {}) as typeof window.scrollTo;
