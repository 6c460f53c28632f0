/** A composed class's property overridden at equal specificity: found in made-up sheets, and none in the app's. */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { composesOverrides } from './css-composes.ts';

const root = path.resolve(import.meta.dirname, '..');

/** Made-up sheets under a made-up root, read from memory. */
function check(sheets: Record<string, string>) {
  const read = (file: string) => {
    const css = sheets[path.relative('/app', file)];
    if (css === undefined) throw new Error(`no sheet ${file}`);
    return css;
  };
  const files = Object.keys(sheets).map((file) => path.join('/app', file));
  return composesOverrides(files, '/app', read);
}

const controls = `
.primary { padding: 0.5rem 1rem; color: white; }
.primary:hover { background: navy; }
@media (max-width: 600px) { .primary { width: 100%; } }
.secondary { composes: primary; border: 1px solid; }
`;

describe('composesOverrides', () => {
  it('finds the Load Rx button as it was: a composing class setting the padding its composed class sets', () => {
    const found = check({
      'controls.module.css': controls,
      'rx/list.module.css': `.load { composes: primary from "../controls.module.css"; padding-inline: 2rem; }`,
    });
    expect(found).toEqual([
      {
        file: 'rx/list.module.css',
        selector: '.load',
        composed: 'controls.module.css .primary',
        properties: ['padding-inline'],
      },
    ]);
  });

  it('compares a pseudo-class with its like and a media query with its like, and every class composed', () => {
    const found = check({
      'controls.module.css': controls,
      'a.module.css': `
.go { composes: primary secondary from "./controls.module.css"; }
.go:hover { background-color: teal; }
.go:focus { background: teal; }
@media (max-width: 600px) { .go { width: auto; } }
@media (min-width: 900px) { .go { width: auto; } }
.go { border-color: red; }
`,
    });
    expect(found.map(({ selector, composed, properties }) => [selector, composed, properties])).toEqual([
      ['.go:hover', 'controls.module.css .primary:hover', ['background-color']],
      ['.go', 'controls.module.css .primary', ['width']],
      ['.go', 'controls.module.css .secondary', ['border-color']],
    ]);
  });

  it('reaches the classes a composed class composes in its own file: overriding those is the same hazard', () => {
    const found = check({
      'controls.module.css': controls,
      'c.module.css': `.danger { composes: secondary from "./controls.module.css"; color: red; }`,
    });
    expect(found.map(({ composed, properties }) => [composed, properties])).toEqual([
      ['controls.module.css .primary', ['color']],
    ]);
  });

  it('leaves alone an override of higher specificity, new properties, a class of the same file and a global one', () => {
    const found = check({
      'controls.module.css': controls,
      'b.module.css': `
.form .load { padding: 2rem; }
.load { composes: primary from "./controls.module.css"; margin: 0; }
.own { padding: 1rem; }
.mine { composes: own; padding: 2rem; }
.spin { composes: boot-loader from global; padding: 0; }
`,
    });
    expect(found).toEqual([]);
  });
});

describe("the app's stylesheets", () => {
  it('override no composed class at equal specificity (the winner would depend on the order the bundler writes them)', () => {
    const src = path.join(root, 'src');
    const files = readdirSync(src, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.module.css'))
      .map((file) => path.join(src, file));
    expect(files.length).toBeGreaterThan(20);
    expect(composesOverrides(files, root)).toEqual([]);
  });
});
