// `--query EXPR` (docs/cli.md section 9): JMESPath, the query language of the aws and az CLIs.
// The engine is @jmespath-community/jmespath: typed, ESM, no dependencies, maintained and
// following the community specification (let, items, group_by...); the older `jmespath`
// package is untyped CommonJS that has not followed the specification since 2022. This file
// is imported only when --query is given.
import { TYPE_ARRAY, TYPE_EXPREF, TreeInterpreter, compile, getRegisteredFunctions, register, type JSONValue } from '@jmespath-community/jmespath';
import { UsageError } from '../errors.js';

/** A compiled expression, as the library's functions get an `&expression` (its type is not exported). */
type ExpressionNode = Parameters<typeof TreeInterpreter.visit>[0];

/** A JMESPath type name, for errors. */
const typeName = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);

/** Strings by code point, as the library's sort_by() orders them (`<` compares UTF-16 units, putting U+FF01 after an emoji). */
function compareKeys(a: number | string, b: number | string): number {
  if (typeof a === 'number' || typeof b === 'number') return Number(a) - Number(b);
  const [left, right] = [Array.from(a, (char) => char.codePointAt(0) ?? 0), Array.from(b, (char) => char.codePointAt(0) ?? 0)];
  const differing = left.findIndex((point, index) => point !== right[index]);
  // Past the end of `right`, `left` is the longer one: greater.
  return differing === -1 ? left.length - right.length : (left[differing] ?? 0) - (right[differing] ?? -1);
}

/**
 * max_by() (`sign` 1) and min_by() (-1) as the specification has them: keys all numbers or all
 * strings, the first item of the greatest (least) key, null for an empty array. The library's own
 * (1.3.0, the newest, and its repository's head) compares every key with `> -Infinity`, so a
 * string key (`max_by(@, &createdOn)`) always gave null, and a falsy winner (`0`) null too.
 */
function extremeBy(name: string, sign: 1 | -1) {
  return ([items, expression]: (JSONValue | ExpressionNode)[]): JSONValue => {
    let best: { item: JSONValue; key: number | string } | undefined;
    for (const item of items as JSONValue[]) {
      const key = TreeInterpreter.visit(expression as ExpressionNode, item);
      if (typeof key !== 'number' && typeof key !== 'string')
        throw new Error(`Invalid type: ${name}() expected the expression to give (number | string), received ${typeName(key)}`);
      if (best !== undefined && typeof key !== typeof best.key)
        throw new Error(`Invalid type: ${name}() expected every key to be a ${typeof best.key}, as the first is; received ${typeof key}`);
      if (best === undefined || sign * compareKeys(key, best.key) > 0) best = { item, key };
    }
    return best?.item ?? null;
  };
}

for (const [name, sign] of [
  ['max_by', 1],
  ['min_by', -1],
] as const) {
  // register() refuses built-in names by type alone; replacing one is what override is for.
  const registered = register(name as string, extremeBy(name, sign), [{ types: [TYPE_ARRAY] }, { types: [TYPE_EXPREF] }], { override: true });
  if (!registered.success) throw new Error(registered.message);
}

export interface CompiledQuery {
  apply(value: unknown): unknown;
  /**
   * The expression maps each element of an array on its own (`[].id`, `[?x=='y'].{a: a}`), so
   * it may run page by page over `list --all` and the results be concatenated in order,
   * instead of holding every ticket for one evaluation at the end.
   */
  elementwise: boolean;
  /**
   * The member names the expression reads that `value` lacks where they are read (`subject` of a
   * ticket whose conversation entries alone have one; `b` of `a.b` anywhere; none of an empty list,
   * where nothing is read): why a query found nothing, for the hint that follows the answer (the spec does not describe
   * list items, and the service decides their names and casing).
   */
  absentMembers(value: unknown): string[];
}

interface Node {
  type: string;
  name?: string;
  left?: Node;
  child?: Node;
  children?: Node[];
  [key: string]: unknown;
}

/** Every function the expression calls, checked now: an unknown one is a typo, exit 2 before any request. */
function calledFunctions(node: unknown, found: Set<string>): Set<string> {
  if (Array.isArray(node)) for (const child of node) calledFunctions(child, found);
  else if (typeof node === 'object' && node !== null) {
    const typed = node as Node;
    if (typed.type === 'Function' && typeof typed.name === 'string') found.add(typed.name);
    for (const value of Object.values(typed)) calledFunctions(value, found);
  }
  return found;
}

/** The member names an expression reads: of the answer itself (`subject`, `[].id`), and deeper (`b` in `a.b`). */
interface ReadMembers {
  top: Set<string>;
  deeper: Set<string>;
}

/**
 * Every member name the expression reads, by where: `top` while `node` reads the answer itself
 * (or, after `[]` or `[?...]` on it, its items). What follows a `.` or a `|` reads something
 * inside it.
 */
function readMembers(node: unknown, top: boolean, found: ReadMembers): ReadMembers {
  if (Array.isArray(node)) for (const child of node) readMembers(child, top, found);
  else if (typeof node === 'object' && node !== null) {
    const typed = node as Node;
    if (typed.type === 'Field' && typeof typed.name === 'string') (top ? found.top : found.deeper).add(typed.name);
    else if (typed.type === 'Subexpression' || typed.type === 'Pipe' || typed.type === 'IndexExpression') {
      readMembers(typed.left, top, found);
      readMembers(typed.right, false, found);
    } else if (typed.type === 'Projection' || typed.type === 'FilterProjection') {
      readMembers(typed.left, top, found);
      const onItems = top && isIdentity(typed.left);
      readMembers(typed.right, onItems, found);
      readMembers(typed.condition, onItems, found);
    } else for (const value of Object.values(typed)) readMembers(value, top, found);
  }
  return found;
}

// Enough of an answer to know its names: items of one list share a shape.
const SAMPLED_ITEMS = 20;
const SAMPLED_DEPTH = 4;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The objects the answer's own members are read from: the answer, or a list's first items. */
function topObjects(value: unknown): Record<string, unknown>[] {
  return (Array.isArray(value) ? value.slice(0, SAMPLED_ITEMS) : [value]).filter(isRecord);
}

/** The objects in `value`: itself, its nested objects and those among the first items of its arrays. */
function sampledObjects(value: unknown, found: Record<string, unknown>[] = [], depth = 0): Record<string, unknown>[] {
  if (depth > SAMPLED_DEPTH || typeof value !== 'object' || value === null) return found;
  if (Array.isArray(value)) {
    for (const item of value.slice(0, SAMPLED_ITEMS)) sampledObjects(item, found, depth + 1);
    return found;
  }
  found.push(value as Record<string, unknown>);
  for (const member of Object.values(value)) sampledObjects(member, found, depth + 1);
  return found;
}

const namesIn = (objects: readonly Record<string, unknown>[]) => new Set(objects.flatMap((object) => Object.keys(object)));

function isIdentity(node: Node | undefined): boolean {
  if (node === undefined) return false;
  return node.type === 'Identity' || (node.type === 'Flatten' && node.child?.type === 'Identity');
}

export function compileQuery(expression: string): CompiledQuery {
  let ast: Node;
  try {
    ast = compile(expression) as unknown as Node;
  } catch (error) {
    throw new UsageError(`invalid --query ${JSON.stringify(expression)}: ${error instanceof Error ? error.message : String(error)}`, {
      // Before any answer, a hint cannot know the service's member names: it shows none.
      hint: 'JMESPath syntax (https://jmespath.org), e.g. --query "length(@)"; tkt help formatting',
    });
  }
  const known = new Set(getRegisteredFunctions());
  const unknown = [...calledFunctions(ast, new Set())].filter((name) => !known.has(name));
  if (unknown.length > 0) throw new UsageError(`invalid --query: unknown function ${unknown.map((name) => `${name}()`).join(', ')}`);
  return {
    apply(value) {
      try {
        return TreeInterpreter.search(ast as never, (value ?? null) as JSONValue);
      } catch (error) {
        // Wrong argument types or counts only show on real data.
        throw new UsageError(`--query failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    },
    elementwise: (ast.type === 'Projection' || ast.type === 'FilterProjection') && isIdentity(ast.left),
    absentMembers(value) {
      const { top, deeper } = readMembers(ast, true, { top: new Set(), deeper: new Set() });
      const ownObjects = topObjects(value);
      const objects = sampledObjects(value);
      const [atTop, anywhere] = [namesIn(ownObjects), namesIn(objects)];
      // A name is missing only where there is an object to read it from: none in an empty list
      // (`list --search` that found nothing), none below an answer that holds no object there.
      const lackedAtTop = ownObjects.length === 0 ? [] : [...top].filter((name) => !atTop.has(name));
      const lackedDeeper = objects.length === ownObjects.length ? [] : [...deeper].filter((name) => !anywhere.has(name));
      return [...new Set([...lackedAtTop, ...lackedDeeper])];
    },
  };
}
