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
   * The member names the expression reads that `value` lacks where they are read, following its
   * path (`subject` of a ticket whose conversation entries alone have one; `id` of the items of
   * status's `urgent`, which have `ticketId`; none of an empty list, where nothing is read): why a
   * query found nothing, for the hint that follows the answer (the spec does not describe list
   * items, and the service decides their names and casing).
   */
  absentMembers(value: unknown): AbsentMembers[];
}

/** Members a query reads that the objects it reads them from lack, by where it reads them. */
export interface AbsentMembers {
  /** '' the answer (or its items), `urgent[]` the items of its `urgent`, undefined past a function or a pipe. */
  where: string | undefined;
  names: string[];
  /** The members those objects have. */
  members: string[];
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

// Enough of an answer to know its names: items of one list share a shape.
const SAMPLED_ITEMS = 20;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The value `node` gives on `value`, or nothing where it fails (a variable read out of its `let`). */
function evaluate(node: Node, value: unknown): unknown[] {
  try {
    return [TreeInterpreter.search(node as never, value as JSONValue)];
  } catch {
    return [];
  }
}

/** The items a projection over `values` reads: of arrays, or with `.*` of objects. */
function itemsOf(values: readonly unknown[], ofObjects: boolean): unknown[] {
  const items = values.flatMap((value) => (Array.isArray(value) ? value : ofObjects && isRecord(value) ? Object.values(value) : []));
  return items.slice(0, SAMPLED_ITEMS);
}

/**
 * Follows the expression down the answer (`node` read from `values`, found at `where`: '' the
 * answer or its items, `urgent[]`, undefined past a function or a pipe), and records each member
 * that every object it is read from lacks, with the members those objects have.
 */
function findAbsent(node: Node | undefined, values: readonly unknown[], where: string | undefined, found: Map<string, AbsentMembers>): void {
  if (node === undefined || values.length === 0) return;
  // The items of the answer are the answer, in hints, as a list's items are what its names are of.
  const itemsWhere = (left: Node, suffix: string) => {
    const at = pathOf(left, where);
    return at === undefined || at === '' || at.endsWith(']') ? at : `${at}${suffix}`;
  };
  switch (node.type) {
    case 'Field': {
      // A name read from a list (`id` of `tkt list`'s answer) is one its items lack.
      const own = values.filter(isRecord);
      const objects = own.length > 0 ? own : itemsOf(values, false).filter(isRecord);
      const name = node.name ?? '';
      if (objects.length === 0 || objects.some((object) => name in object)) return;
      const key = where ?? '';
      const level = found.get(key) ?? { where, names: [], members: [...new Set(objects.flatMap((object) => Object.keys(object)))] };
      if (!level.names.includes(name)) level.names.push(name);
      found.set(key, level);
      return;
    }
    case 'Subexpression':
    case 'IndexExpression':
    case 'Pipe':
      findAbsent(node.left, values, where, found);
      findAbsent(
        node.right as Node,
        values.flatMap((value) => evaluate(node.left as Node, value)),
        pathOf(node.left, where),
        found,
      );
      return;
    case 'Projection':
    case 'FilterProjection':
    case 'ValueProjection': {
      findAbsent(node.left, values, where, found);
      // The items, all of them: a filter that kept none must not hide a name they all lack.
      const items = itemsOf(
        values.flatMap((value) => evaluate(node.left as Node, value)),
        node.type === 'ValueProjection',
      );
      const itemsAt = itemsWhere(node.left as Node, node.type === 'ValueProjection' ? '.*' : '[]');
      findAbsent(node.condition as Node | undefined, items, itemsAt, found);
      findAbsent(node.right as Node, items, itemsAt, found);
      return;
    }
    case 'Function': {
      const children = node.children ?? [];
      for (const child of children) if (child.type !== 'ExpressionReference') findAbsent(child, values, where, found);
      // `&expression` reads the items of the arrays given with it (sort_by(@, &dueDate), map(&id, list)).
      const arrays = children.filter((child) => child.type !== 'ExpressionReference').flatMap((child) => values.flatMap((value) => evaluate(child, value)));
      for (const child of children) if (child.type === 'ExpressionReference') findAbsent(child.child, itemsOf(arrays, false), undefined, found);
      return;
    }
    default:
      for (const child of Object.values(node))
        for (const part of Array.isArray(child) ? child : [child])
          if (isRecord(part) && typeof part.type === 'string') findAbsent(part as Node, values, where, found);
  }
}

/** Where `node` leads from `where`, in the expression's words (`urgent`, `a[0]`); undefined where no member path says it. */
function pathOf(node: Node | undefined, where: string | undefined): string | undefined {
  if (node === undefined || where === undefined) return undefined;
  if (node.type === 'Identity' || node.type === 'Current') return where;
  if (node.type === 'Field') return where === '' ? node.name : `${where}.${node.name ?? ''}`;
  if (node.type === 'Flatten') return pathOf(node.child, where);
  if (node.type === 'Subexpression') return pathOf(node.right as Node, pathOf(node.left, where));
  if (node.type === 'IndexExpression') {
    const at = pathOf(node.left, where);
    const index = node.right as Node | undefined;
    return at === undefined || index?.type !== 'Index' ? at : `${at}[${String(index.value)}]`;
  }
  return undefined;
}

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
      // A name is missing only where there is an object to read it from: none in an empty list
      // (`list --search` that found nothing), none below an answer that holds no object there.
      const found = new Map<string, AbsentMembers>();
      findAbsent(ast, [value ?? null], '', found);
      return [...found.values()];
    },
  };
}
