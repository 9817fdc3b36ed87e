/**
 * Persistent sorted set: an AVL tree that copies the O(log n) nodes on the path of a change and
 * shares the rest, so every earlier version stays valid for the snapshots holding it. Immutable.js
 * has no sorted collection; a scan for the smallest element cost O(n) per question.
 */

interface SortedNode<T> {
  readonly value: T;
  readonly left: SortedNode<T> | undefined;
  readonly right: SortedNode<T> | undefined;
  readonly height: number;
}

/** A set of values kept in `compare` order; values comparing equal are the same element. */
export interface SortedSet<T> {
  readonly root: SortedNode<T> | undefined;
  readonly size: number;
  readonly compare: (a: T, b: T) => number;
}

const height = <T>(n: SortedNode<T> | undefined): number => (n === undefined ? 0 : n.height);

function node<T>(value: T, left: SortedNode<T> | undefined, right: SortedNode<T> | undefined): SortedNode<T> {
  return Object.freeze({ value, left, right, height: Math.max(height(left), height(right)) + 1 });
}

/** `node(value, left, right)` with at most one rotation (or two), for subtrees whose heights differ by at most 2. */
function balanced<T>(value: T, left: SortedNode<T> | undefined, right: SortedNode<T> | undefined): SortedNode<T> {
  const lh = height(left);
  const rh = height(right);
  if (lh > rh + 1) {
    const l = left as SortedNode<T>;
    if (height(l.left) >= height(l.right)) return node(l.value, l.left, node(value, l.right, right));
    const lr = l.right as SortedNode<T>;
    return node(lr.value, node(l.value, l.left, lr.left), node(value, lr.right, right));
  }
  if (rh > lh + 1) {
    const r = right as SortedNode<T>;
    if (height(r.right) >= height(r.left)) return node(r.value, node(value, left, r.left), r.right);
    const rl = r.left as SortedNode<T>;
    return node(rl.value, node(value, left, rl.left), node(r.value, rl.right, r.right));
  }
  return node(value, left, right);
}

function made<T>(set: SortedSet<T>, root: SortedNode<T> | undefined, size: number): SortedSet<T> {
  return Object.freeze({ root, size, compare: set.compare });
}

/** The empty set ordered by `compare`. */
export function emptySortedSet<T>(compare: (a: T, b: T) => number): SortedSet<T> {
  return Object.freeze({ root: undefined, size: 0, compare });
}

/** The set ordered by `compare` holding `values`, which must be strictly ascending in that order. O(n). */
export function sortedSetOf<T>(values: readonly T[], compare: (a: T, b: T) => number): SortedSet<T> {
  const build = (from: number, to: number): SortedNode<T> | undefined => {
    if (from >= to) return undefined;
    const mid = (from + to) >>> 1;
    return node(values[mid] as T, build(from, mid), build(mid + 1, to));
  };
  return Object.freeze({ root: build(0, values.length), size: values.length, compare });
}

/** `set` with `value` in it (replacing an element that compares equal). */
export function sortedAdd<T>(set: SortedSet<T>, value: T): SortedSet<T> {
  let added = true;
  const insert = (n: SortedNode<T> | undefined): SortedNode<T> => {
    if (n === undefined) return node(value, undefined, undefined);
    const c = set.compare(value, n.value);
    if (c < 0) return balanced(n.value, insert(n.left), n.right);
    if (c > 0) return balanced(n.value, n.left, insert(n.right));
    added = false;
    return node(value, n.left, n.right);
  };
  const root = insert(set.root);
  return made(set, root, added ? set.size + 1 : set.size);
}

/** The subtree without its smallest element, and that element. */
function withoutFirst<T>(n: SortedNode<T>): { rest: SortedNode<T> | undefined; first: T } {
  if (n.left === undefined) return { rest: n.right, first: n.value };
  const r = withoutFirst(n.left);
  return { rest: balanced(n.value, r.rest, n.right), first: r.first };
}

/** `set` without the element comparing equal to `value`; the same set when there is none. */
export function sortedRemove<T>(set: SortedSet<T>, value: T): SortedSet<T> {
  let removed = false;
  const remove = (n: SortedNode<T> | undefined): SortedNode<T> | undefined => {
    if (n === undefined) return undefined;
    const c = set.compare(value, n.value);
    if (c < 0) {
      const left = remove(n.left);
      return left === n.left ? n : balanced(n.value, left, n.right);
    }
    if (c > 0) {
      const right = remove(n.right);
      return right === n.right ? n : balanced(n.value, n.left, right);
    }
    removed = true;
    if (n.left === undefined) return n.right;
    if (n.right === undefined) return n.left;
    const r = withoutFirst(n.right);
    return balanced(r.first, n.left, r.rest);
  };
  const root = remove(set.root);
  return removed ? made(set, root, set.size - 1) : set;
}

/** The smallest element, undefined when the set is empty. O(log n). */
export function sortedFirst<T>(set: SortedSet<T>): T | undefined {
  let n = set.root;
  if (n === undefined) return undefined;
  while (n.left !== undefined) n = n.left;
  return n.value;
}

/** The elements in order. */
export function* sortedValues<T>(set: SortedSet<T>): Generator<T> {
  const stack: SortedNode<T>[] = [];
  let n = set.root;
  while (n !== undefined || stack.length > 0) {
    while (n !== undefined) {
      stack.push(n);
      n = n.left;
    }
    const top = stack.pop() as SortedNode<T>;
    yield top.value;
    n = top.right;
  }
}
