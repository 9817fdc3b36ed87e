/**
 * Tarjan's strongly connected components, iterative so deep graphs cannot overflow the stack.
 * Components come out in completion order (a component before any that reach it); members
 * are in stack-pop order.
 */

/** A directed graph as node list plus edges. */
export interface DecisionGraph {
  /** Nodes in first-seen order. */
  readonly nodes: readonly string[];
  /** Edges, possibly repeated. */
  readonly edges: readonly (readonly [string, string])[];
}

/** Strongly connected components of `graph`, roots visited in node order. */
export function tarjanScc(graph: DecisionGraph): string[][] {
  const adj = new Map<string, string[]>(graph.nodes.map((n) => [n, []]));
  for (const [a, b] of graph.edges) {
    if (!adj.has(a)) adj.set(a, []);
    if (!adj.has(b)) adj.set(b, []);
    (adj.get(a) as string[]).push(b);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const out: string[][] = [];
  let counter = 0;
  for (const root of adj.keys()) {
    if (index.has(root)) continue;
    const work: [string, number][] = [[root, 0]];
    index.set(root, counter);
    low.set(root, counter++);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const frame = work[work.length - 1] as [string, number];
      const [v, i] = frame;
      const next = (adj.get(v) as string[])[i];
      if (next !== undefined) {
        frame[1]++;
        if (!index.has(next)) {
          index.set(next, counter);
          low.set(next, counter++);
          stack.push(next);
          onStack.add(next);
          work.push([next, 0]);
        } else if (onStack.has(next)) {
          low.set(v, Math.min(low.get(v) as number, index.get(next) as number));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent !== undefined) low.set(parent[0], Math.min(low.get(parent[0]) as number, low.get(v) as number));
      if (low.get(v) === index.get(v)) {
        const scc: string[] = [];
        let w: string;
        do {
          w = stack.pop() as string;
          onStack.delete(w);
          scc.push(w);
        } while (w !== v);
        out.push(scc);
      }
    }
  }
  return out;
}
