/**
 * A CSS Modules hazard, found by issue 50 (the Load Rx button): `.load { composes: primary from './controls.module.css';
 * padding: … }` overrides a property of the class it composes with a selector of the same specificity, so which
 * wins depends on the order the bundler writes the two files' rules in. A change elsewhere (a screen split into
 * another chunk) reorders them, and the override silently loses. This finds every such pair in the sources: a class
 * that composes a class of another file, and one of its rules (the class alone, or with the same pseudo-classes) that
 * sets a property that rule of the composed class sets too. Mend: raise the override's specificity (`.form .load`),
 * or do not compose a class whose properties you change.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import postcss, { type Rule } from 'postcss';

export interface ComposesOverride {
  /** The composing file, relative to the root scanned. */
  file: string;
  /** Its rule, e.g. `.load:hover`. */
  selector: string;
  /** The file and rule of the composed class whose property it overrides. */
  composed: string;
  /** The properties both set (a shorthand and its longhands count as one). */
  properties: string[];
}

/** A class selector alone, with only pseudo-classes or elements after it: `.load`, `.load:hover:not(:disabled)`. */
const SIMPLE = /^\.([\w-]+)((?::{1,2}[\w-]+(?:\([^)]*\))?)*)$/;

/** Each rule's selectors split, with the at-rules around it (a media query's rules are compared with their like). */
function rulesOf(css: string, from: string) {
  const rules: { className: string; suffix: string; context: string; selector: string; properties: string[] }[] = [];
  const composes: { className: string; names: string[]; source: string | undefined }[] = [];
  postcss.parse(css, { from }).walkRules((rule: Rule) => {
    const context = contextOf(rule);
    const properties: string[] = [];
    rule.each((node) => {
      if (node.type !== 'decl') return;
      if (node.prop === 'composes') {
        // `composes: a b from "./file.css"`, `… from global`, or `composes: a b` (this file: no source).
        const match = /^(.+?)(?:\s+from\s+(?:(["'])(.+)\2|(global)))?$/.exec(node.value.trim());
        const single = SIMPLE.exec(rule.selector.trim());
        if (match?.[1] && single?.[1]) {
          composes.push({ className: single[1], names: match[1].split(/\s+/), source: match[3] ?? match[4] });
        }
        return;
      }
      properties.push(node.prop.toLowerCase());
    });
    for (const selector of rule.selectors) {
      const simple = SIMPLE.exec(selector.trim());
      if (simple?.[1]) {
        rules.push({ className: simple[1], suffix: simple[2] ?? '', context, selector: selector.trim(), properties });
      }
    }
  });
  return { rules, composes };
}

function contextOf(rule: Rule): string {
  const around: string[] = [];
  for (let parent = rule.parent; parent && parent.type !== 'root'; parent = parent.parent) {
    if (parent.type === 'atrule') around.unshift(`@${parent.name} ${parent.params}`);
  }
  return around.join(' ');
}

/** `padding` and `padding-inline`, `border` and `border-color`: setting one changes what the other set. */
function overlaps(a: string, b: string): boolean {
  return a === b || a.startsWith(`${b}-`) || b.startsWith(`${a}-`);
}

/** The classes named and those they compose in their own file (`.secondary { composes: primary; }`), transitively. */
function withinFile(names: string[], composes: ReturnType<typeof rulesOf>['composes']): Set<string> {
  const reached = new Set(names);
  for (let grew = true; grew; ) {
    grew = false;
    for (const { className, names: more, source } of composes) {
      if (source !== undefined || !reached.has(className)) continue;
      for (const name of more) {
        if (reached.has(name)) continue;
        reached.add(name);
        grew = true;
      }
    }
  }
  return reached;
}

/** Every override of a composed class's property by a rule of equal specificity, in the given CSS Modules files. */
export function composesOverrides(files: string[], root: string, read = (file: string) => readFileSync(file, 'utf8')) {
  const parsed = new Map<string, ReturnType<typeof rulesOf>>();
  const parse = (file: string) => {
    let result = parsed.get(file);
    if (!result) {
      result = rulesOf(read(file), file);
      parsed.set(file, result);
    }
    return result;
  };
  const found: ComposesOverride[] = [];
  for (const file of files) {
    const { rules, composes } = parse(file);
    for (const { className, names, source } of composes) {
      // A class of this file: its rules' order is the file's own. `from global`: the global sheet comes first.
      if (source === undefined || source === 'global') continue;
      const sourceFile = path.resolve(path.dirname(file), source);
      const composed = parse(sourceFile);
      const reached = withinFile(names, composed.composes);
      for (const own of rules.filter((rule) => rule.className === className)) {
        for (const theirs of composed.rules) {
          if (!reached.has(theirs.className) || theirs.suffix !== own.suffix || theirs.context !== own.context) {
            continue;
          }
          const properties = own.properties.filter((prop) => theirs.properties.some((other) => overlaps(prop, other)));
          if (properties.length > 0) {
            found.push({
              file: path.relative(root, file),
              selector: own.selector,
              composed: `${path.relative(root, sourceFile)} ${theirs.selector}`,
              properties,
            });
          }
        }
      }
    }
  }
  return found;
}
